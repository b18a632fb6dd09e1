# source: https://pytorch.org/docs/stable/generated/torch.nn.BCEWithLogitsLoss.html
# family: A
# negative: float() is applied to a label statistic (no autograd history) to build a class-balancing weight; the loss itself stays a graph tensor
# mimics: float() inside a loss computation
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)


def balanced_bce(logits, y):
    n_pos = float(y.sum())
    n_neg = float(y.numel() - n_pos)
    pos_weight = torch.tensor([n_neg / max(n_pos, 1.0)])
    return F.binary_cross_entropy_with_logits(logits, y, pos_weight=pos_weight)


for step in range(100):
    x = torch.randn(64, 16)
    y = (torch.rand(64, 1) < 0.1).float()
    loss = balanced_bce(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
