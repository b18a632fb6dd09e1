# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: safe-normalise with torch.where(norm > 0, v / norm, v); the untaken v / 0 branch of a zero vector is 0/0 and its gradient NaN
# expect: line 13 — torch.where(norm > 0, v / norm, v) for a zero vector
# checked: ran (torch 2.13 CPU), reproduces (v.grad of the zero row = [nan, nan])

import torch

v = torch.tensor([[3.0, 4.0], [0.0, 0.0]], requires_grad=True)
norm = torch.linalg.vector_norm(v, dim=-1, keepdim=True)
unit = torch.where(norm > 0, v / norm, v)
(unit * torch.tensor([1.0, 2.0])).sum().backward()
print(v.grad)
