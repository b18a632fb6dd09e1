# source: https://github.com/pytorch/pytorch/issues/103509
# framework: torch
# family: C
# kind: grad-without-create-graph
# negative: the answer's fix: jacobian(..., create_graph=True) builds the graph of the derivative, so f(a) can be differentiated again
# mimics: positive/1088_functional_jacobian_without_create_graph.py
# expect: no finding
# checked: ran, no error

import torch


def g(x):
    return x ** 3


def f(a):
    return torch.autograd.functional.jacobian(g, a, create_graph=True)


a = torch.ones(1, requires_grad=True)
out = f(a)
print(out.grad_fn)
