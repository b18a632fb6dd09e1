# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: the condition is computed first into a mask variable and the branch uses ** 0.5; the untaken branch is still differentiated at negative inputs
# expect: line 13 — torch.where(pos, x ** 0.5, x) with negative x
# checked: ran (torch 2.13 CPU), reproduces (xt.grad = [nan, nan, 0.1667])

import torch

xt = torch.tensor([-1.0, -4.0, 9.0], requires_grad=True)
pos = xt > 0
y = torch.where(pos, xt ** 0.5, xt)
y.sum().backward()
print(xt.grad)
