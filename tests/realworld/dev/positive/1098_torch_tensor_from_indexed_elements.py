# source: https://github.com/DiffSharp/DiffSharp/issues/156
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: a new tensor is built with torch.tensor([x[0], x[1], x[2]]) from elements of the input; the construction copies values, so the function's gradient with respect to x is lost (the maintainer shows PyTorch behaves the same by design)
# expect: line 17 — torch.tensor(list of tensor elements) is not differentiable; y has no history back to x (use torch.stack or indexing)
# checked: ran, reproduces (y.sum() has no grad_fn)

import torch


def fn1(x):
    return x.sum()


def fn2(x):
    y = torch.tensor([x[0], x[1], x[2]])
    return y.sum()


x = torch.tensor([2.1, 0.2, -1.1], requires_grad=True)
print(torch.autograd.grad(fn1(x), x))
print(fn2(x).requires_grad)
