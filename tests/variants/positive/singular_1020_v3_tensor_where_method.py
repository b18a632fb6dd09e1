# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: Tensor.where method spelling: torch.sqrt(x).where(x > 0, x); the sqrt of the negative entries is still differentiated
# expect: line 12 — torch.sqrt(xt).where(xt > 0, xt) with negative xt
# checked: ran (torch 2.13 CPU), reproduces (xt.grad = [nan, nan])

import torch

xt = torch.tensor([-1.0, -4.0], requires_grad=True)
y = torch.sqrt(xt).where(xt > 0, xt)
y.sum().backward()
print(xt.grad)
