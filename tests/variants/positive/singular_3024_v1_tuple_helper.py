# source: variant of 3024_torch_where_sqrt_at_zero.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: the sqrt branch is a separate variable from a helper, then torch.where(x == 0, lin, root); at x == 0 the unselected sqrt has infinite derivative
# expect: line 18 — torch.where(x == 0, lin, root) with root = x.sqrt() + 1
# checked: ran (torch 2.13 CPU), reproduces (x.grad = [0.125, nan])

import torch


def branches(x):
    return x / 2, x.sqrt() + 1


x = torch.tensor([16.0, 0.0], requires_grad=True)
lin, root = branches(x)
w = torch.where(x == 0, lin, root)
w.sum().backward()
print(x.grad)
