# source: variant of 1045_checkpoint_lambda_input_no_grad.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: the stem is frozen (run under torch.no_grad()) and the trainable block after it is wrapped in torch.utils.checkpoint.checkpoint (reentrant by default); its input does not require grad, so the block's output has no graph and the block never trains
# expect: line 24 — reentrant checkpoint whose only tensor input comes from the frozen stem (no requires_grad)
# checked: ran, reproduces (model.block weights get .grad None; only the head trains)

import torch
import torch.nn as nn
import torch.utils.checkpoint


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1).requires_grad_(False)
        self.block = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        with torch.no_grad():
            h = self.stem(x)
        h = torch.utils.checkpoint.checkpoint(self.block, h)
        return self.head(h.mean((2, 3)))


model = Model()
optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.01)
logits = model(torch.randn(2, 3, 8, 8))
loss = nn.functional.cross_entropy(logits, torch.tensor([0, 1]))
optimizer.zero_grad()
loss.backward()
optimizer.step()
