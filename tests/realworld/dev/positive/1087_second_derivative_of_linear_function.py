# source: https://github.com/pytorch/pytorch/issues/32304
# framework: torch
# family: C
# kind: other-grad-of-constant-gradient
# pitfall: a generic second-derivative helper calls autograd.grad on the first derivative; for a linear function the first derivative is a constant with no grad_fn, so the second call fails instead of returning 0
# expect: line 16 — the first derivative of a linear function has no graph even with create_graph=True; grad of it raises "does not require grad" (use allow_unused=True / materialize_grads and treat None as zero)
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad)

import torch


def second_deriv(y, x):
    # first derivative of scalar y = f(x) wrt scalar x
    first = torch.autograd.grad(y, x, create_graph=True)[0]
    # second derivative of y wrt x
    second = torch.autograd.grad(first, x, create_graph=True)[0]
    return second


x = torch.tensor(1.0, requires_grad=True)
print(second_deriv(x**2, x))
print(second_deriv(x*2, x))
