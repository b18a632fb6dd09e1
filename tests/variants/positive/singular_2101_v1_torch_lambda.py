# source: variant of 2101_jax_where_sqrt_branch_nan.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: torch port of jax#5798: a lambda torch.where(x < 1., x, torch.sqrt(x)) evaluated at 0 gives a NaN gradient from the untaken sqrt
# expect: line 11 — lambda with torch.where(x < 1., x, torch.sqrt(x))
# checked: ran (torch 2.13 CPU), reproduces (x.grad = [nan, 0.25])

import torch

f = lambda x: torch.where(x < 1., x, torch.sqrt(x))
x = torch.tensor([0.0, 4.0], requires_grad=True)
f(x).sum().backward()
print(x.grad)
