# source: https://github.com/pytorch/pytorch/issues/103509
# framework: torch
# family: C
# kind: grad-without-create-graph
# pitfall: f(a) is defined as the Jacobian of g computed with torch.autograd.functional.jacobian; without create_graph=True the Jacobian is a constant, so f cannot be differentiated with respect to a (the graph is empty)
# expect: line 17 — functional.jacobian without create_graph=True returns a result detached from a; df/da is lost
# checked: ran, reproduces (f(a) has no grad_fn)

import torch


def g(x):
    return x ** 3


def f(a):
    return torch.autograd.functional.jacobian(g, a)


a = torch.ones(1, requires_grad=True)
out = f(a)
print(out.grad_fn)
