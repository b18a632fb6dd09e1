# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: a function builds its output with x.new_tensor([x[0] * x[1], x[2] ** 2]); new_tensor copies values like torch.tensor, so the gradient with respect to x is lost
# expect: line 13 — x.new_tensor(list of tensor elements) is not differentiable; y has no history back to x (use torch.stack)
# checked: ran, reproduces (f(x).requires_grad is False; autograd.grad raises "element 0 of tensors does not require grad")

import torch


def f(x):
    y = x.new_tensor([x[0] * x[1], x[2] ** 2])
    return y.sum()


x = torch.tensor([2.1, 0.2, -1.1], requires_grad=True)
out = f(x)
print(out.requires_grad)
print(torch.autograd.grad(out, x))
