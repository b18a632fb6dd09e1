# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: denominator floored: v / norm.clamp_min(1e-12)
# mimics: 1020_v6_where_div_norm.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

v = torch.tensor([[3.0, 4.0], [0.0, 0.0]], requires_grad=True)
norm = torch.linalg.vector_norm(v, dim=-1, keepdim=True)
unit = v / norm.clamp_min(1e-12)
(unit * torch.tensor([1.0, 2.0])).sum().backward()
print(v.grad)
