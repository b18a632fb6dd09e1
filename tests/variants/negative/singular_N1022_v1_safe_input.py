# source: variant of 1022_where_log2_piecewise.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: safe input before log2
# mimics: 1022_v1_mask_var_method.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

x1 = torch.tensor([0.0, 2.0, 3.0], requires_grad=True)
big = x1 > 2
y1 = torch.where(big, torch.where(big, x1, torch.ones_like(x1)).log2(), 2 * x1)
y1.sum().backward()
print(x1.grad)
