# source: variant of 1021_where_exp_overflow_guard.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: numerically 'stable' softplus by where: torch.where(x > 0, x + torch.log1p(torch.exp(-x)), torch.log1p(torch.exp(x))); the untaken exp(-x) overflows for very negative x and the gradient is NaN
# expect: line 12 — torch.where(x > 0, x + log1p(exp(-x)), log1p(exp(x))) at x = -100
# checked: ran (torch 2.13 CPU), reproduces (x.grad = [nan, 0.95] at x = -100)

import torch

x = torch.tensor([-100.0, 3.0], requires_grad=True)
y = torch.where(x > 0, x + torch.log1p(torch.exp(-x)), torch.log1p(torch.exp(x)))
y.sum().backward()
print(x.grad)
