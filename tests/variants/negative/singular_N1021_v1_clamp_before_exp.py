# source: variant of 1021_where_exp_overflow_guard.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: exp of a clamped input (what the threshold means)
# mimics: 1021_v1_softplus_log1p_exp.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
from torch import nn


def softplus(x, threshold=20.0):
    return torch.where(x < threshold, torch.log1p(torch.exp(x.clamp(max=threshold))), x)


layer = nn.Linear(2, 3)
with torch.no_grad():
    layer.weight.fill_(60.0)
x = torch.tensor([[1.0, 1.0], [-1.0, 0.5]])
softplus(layer(x)).sum().backward()
print(torch.isnan(layer.weight.grad).any().item())
