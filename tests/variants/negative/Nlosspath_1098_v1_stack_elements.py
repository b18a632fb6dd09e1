# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: fixed twin: torch.stack keeps the history
# expect: no finding
# checked: ran, no error (exit 0)

import torch


def f(x):
    y = torch.stack([x[0] * x[1], x[2] ** 2])
    return y.sum()


x = torch.tensor([2.1, 0.2, -1.1], requires_grad=True)
out = f(x)
print(out.requires_grad)
print(torch.autograd.grad(out, x))
