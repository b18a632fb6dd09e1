# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: input clamped before the power
# mimics: 1020_v2_mask_var_pow_half.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

xt = torch.tensor([-1.0, -4.0, 9.0], requires_grad=True)
pos = xt > 0
y = torch.where(pos, xt.clamp_min(1e-12) ** 0.5, xt)
y.sum().backward()
print(xt.grad)
