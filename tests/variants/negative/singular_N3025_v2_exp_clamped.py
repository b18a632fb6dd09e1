# source: variant of 3025_torch_where_exp_overflow_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: exp of the clamped input
# mimics: 3025_v2_branch_by_name.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

a = torch.tensor([100.0, -2.0], requires_grad=True)
ea = torch.exp(a.clamp(max=0))
b = torch.where(a <= 0, ea, 1 + a)
b.sum().backward()
print(a.grad)
