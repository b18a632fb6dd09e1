# source: synthetic
# family: A
# pitfall: custom loss module sums per-sample criterion values into a Python float with .item() (to skip invalid samples) and returns torch.tensor(total, requires_grad=True)
# expect: line 19 — .item() on each per-sample loss leaves autograd; the returned tensor is a new leaf and the regression model receives no gradient

import torch
from torch import nn


class MaskedL1(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.SmoothL1Loss()

    def forward(self, pred, target, valid):
        total, n = 0.0, 0
        for i in range(pred.size(0)):
            if valid[i]:
                total += self.l1(pred[i], target[i]).item()
                n += 1
        return torch.tensor(total / max(n, 1), requires_grad=True)


model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 3))
criterion = MaskedL1()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(100):
    x, y = torch.randn(16, 6), torch.randn(16, 3)
    loss = criterion(model(x), y, valid=torch.rand(16) > 0.2)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(model[0].weight.grad)  # None
