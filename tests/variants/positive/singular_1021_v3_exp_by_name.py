# source: variant of 1021_where_exp_overflow_guard.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: overflow guard with the exp on its own line: e = torch.exp(x); torch.where(x <= x_th, e, b); the NaN/huge entries get a NaN gradient
# expect: line 14 — torch.where(x <= x_th, e, b) with e = torch.exp(x)
# checked: ran (torch 2.13 CPU), reproduces (x.grad = [2.718, nan])

import torch

x_th = 10.0
x = torch.tensor([1.0, 1e10], requires_grad=True)
e = torch.exp(x)
x_out = torch.where(x <= x_th, e, torch.ones_like(x))
x_out.sum().backward()
print(x.grad)
