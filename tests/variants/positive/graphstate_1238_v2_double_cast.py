# source: variant of 1238_cuda_copy_of_leaf_grad_none.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: the leaf is created with requires_grad=True and immediately cast with .double(); the name keeps only the non-leaf cast copy, whose .grad is None after backward
# expect: line 10 — torch.rand(..., requires_grad=True).double() returns a non-leaf copy
# checked: ran, reproduces (w.grad: None)
import torch

w = torch.rand(5, requires_grad=True).double()
x = torch.linspace(0, 1, 5, dtype=torch.float64)
loss = ((w * x).sum() - 1.0) ** 2
loss.backward()
print("w.grad:", w.grad)
