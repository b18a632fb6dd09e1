# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: VICReg variance term written as torch.sqrt(z.var(dim=0)) without eps; a collapsed (constant) embedding dimension has var 0 and NaN gradient
# expect: line 15 — torch.sqrt(z_a.var(dim=0)) on a collapsed feature
# checked: ran (torch 2.13 CPU), reproduces (NaN in proj[2].weight.grad (every feature constant over the batch))

import torch
import torch.nn.functional as F
from torch import nn


def variance_loss(z_a, z_b):
    std_a = torch.sqrt(z_a.var(dim=0))
    std_b = torch.sqrt(z_b.var(dim=0))
    return F.relu(1 - std_a).mean() + F.relu(1 - std_b).mean()


proj = nn.Sequential(nn.Linear(8, 4), nn.BatchNorm1d(4, affine=False), nn.Linear(4, 4))
x = torch.randn(16, 8)
x[:, :] = x[0]  # a batch of identical (e.g. blank) inputs: every feature is constant
loss = variance_loss(proj(x), proj(x))
loss.backward()
print(torch.isnan(proj[2].weight.grad).any().item())
