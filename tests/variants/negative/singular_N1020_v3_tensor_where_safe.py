# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: Tensor.where with a safe input
# mimics: 1020_v3_tensor_where_method.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

xt = torch.tensor([-1.0, -4.0], requires_grad=True)
y = torch.sqrt(xt.clamp(min=1e-12)).where(xt > 0, xt)
y.sum().backward()
print(xt.grad)
