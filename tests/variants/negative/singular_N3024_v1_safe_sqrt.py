# source: variant of 3024_torch_where_sqrt_at_zero.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: the sqrt branch uses a safe input
# mimics: 3024_v1_tuple_helper.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def branches(x):
    return x / 2, torch.where(x == 0, torch.ones_like(x), x).sqrt() + 1


x = torch.tensor([16.0, 0.0], requires_grad=True)
lin, root = branches(x)
w = torch.where(x == 0, lin, root)
w.sum().backward()
print(x.grad)
