# source: variant of 1021_where_exp_overflow_guard.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: hand-written softplus: torch.where(x < 20, torch.log1p(torch.exp(x)), x); exp overflows to inf for large x in the untaken branch and the gradient is NaN
# expect: line 14 — torch.where(x < threshold, torch.log1p(torch.exp(x)), x) with x > 88
# checked: ran (torch 2.13 CPU), reproduces (NaN in layer.weight.grad (pre-activation ~120 > 88, exp overflows))

import torch
from torch import nn


def softplus(x, threshold=20.0):
    return torch.where(x < threshold, torch.log1p(torch.exp(x)), x)


layer = nn.Linear(2, 3)
with torch.no_grad():
    layer.weight.fill_(60.0)
x = torch.tensor([[1.0, 1.0], [-1.0, 0.5]])
softplus(layer(x)).sum().backward()
print(torch.isnan(layer.weight.grad).any().item())
