# source: https://pytorch.org/blog/pytorch-0_4_0-migration-guide/
# family: D
# pitfall: hand-written BCE clamps the sigmoid output through .data "to avoid log(0)" before taking the log
# expect: line 16 — .data mutation of an activation that sigmoid saved for backward: autograd does not notice and the gradients are silently computed from the clamped values

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(30, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
eps = 1e-3


def bce(logits, y):
    p = torch.sigmoid(logits)
    p.data.clamp_(eps, 1 - eps)
    return -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()


for step in range(100):
    x, y = torch.randn(64, 30), torch.randint(0, 2, (64, 1)).float()
    loss = bce(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
