# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: the input is masked before the sqrt
# mimics: 1020_v4_masked_fill.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
root = torch.sqrt(x.masked_fill(x <= 0, 1.0)).masked_fill(x <= 0, 0.0)
root.sum().backward()
print(x.grad)
