# source: variant of 1044_fcn_nllloss_reduce_false_backward.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: the model's forward returns {"loss": F.mse_loss(..., reduction="none"), ...} and the loop calls out["loss"].backward() on the per-element loss
# expect: line 32 — out["loss"].backward() on an unreduced loss tensor
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 2)

    def forward(self, x, y=None):
        pred = self.fc(x)
        out = {"pred": pred}
        if y is not None:
            out["loss"] = F.mse_loss(pred, y, reduction="none")
        return out


model = Regressor()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in [(torch.randn(4, 6), torch.randn(4, 2)) for _ in range(2)]:
    out = model(x, y)
    optimizer.zero_grad()
    out["loss"].backward()
    optimizer.step()
