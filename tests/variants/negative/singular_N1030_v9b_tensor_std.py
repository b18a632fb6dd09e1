# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: x.std(dim=0): torch's std backward is 0 for a constant feature
# mimics: 1030_v9_vicreg_sqrt_var.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
import torch.nn.functional as F
from torch import nn


def variance_loss(z_a, z_b):
    std_a = z_a.std(dim=0)
    std_b = z_b.std(dim=0)
    return F.relu(1 - std_a).mean() + F.relu(1 - std_b).mean()


proj = nn.Sequential(nn.Linear(8, 4), nn.BatchNorm1d(4, affine=False), nn.Linear(4, 4))
x = torch.randn(16, 8)
x[:, :] = x[0]  # a batch of identical (e.g. blank) inputs: every feature is constant
loss = variance_loss(proj(x), proj(x))
loss.backward()
print(torch.isnan(proj[2].weight.grad).any().item())
