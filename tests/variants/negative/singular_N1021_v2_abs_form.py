# source: variant of 1021_where_exp_overflow_guard.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: the branch-free stable softplus: relu(x) + log1p(exp(-|x|))
# mimics: 1021_v2_stable_softplus_where.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

x = torch.tensor([-100.0, 3.0], requires_grad=True)
y = torch.relu(x) + torch.log1p(torch.exp(-x.abs()))
y.sum().backward()
print(x.grad)
