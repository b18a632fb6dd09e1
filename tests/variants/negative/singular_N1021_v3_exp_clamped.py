# source: variant of 1021_where_exp_overflow_guard.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: exp of the clamped input
# mimics: 1021_v3_exp_by_name.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

x_th = 10.0
x = torch.tensor([1.0, 1e10], requires_grad=True)
e = torch.exp(x.clamp(max=x_th))
x_out = torch.where(x <= x_th, e, torch.ones_like(x))
x_out.sum().backward()
print(x.grad)
