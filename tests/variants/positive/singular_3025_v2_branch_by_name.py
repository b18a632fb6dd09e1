# source: variant of 3025_torch_where_exp_overflow_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: the exp branch is computed on an earlier line and passed by name to torch.where(a <= 0, ea, 1 + a); at a = 100 exp overflows and a.grad is NaN
# expect: line 13 — torch.where(a <= 0, ea, 1 + a) with ea = torch.exp(a)
# checked: ran (torch 2.13 CPU), reproduces (a.grad = [nan, 0.135])

import torch

a = torch.tensor([100.0, -2.0], requires_grad=True)
ea = torch.exp(a)
b = torch.where(a <= 0, ea, 1 + a)
b.sum().backward()
print(a.grad)
