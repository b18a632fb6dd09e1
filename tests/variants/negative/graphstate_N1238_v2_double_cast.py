# source: variant of 1238_cuda_copy_of_leaf_grad_none.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: fixed twin: the tensor is created on the device (or requires_grad_() is called after the move), so it is a leaf
# expect: no finding
# checked: ran (FAKECUDA shim where needed), grad is populated (w.grad: tensor([0.0000, 0.0635, 0.1271, 0.1906, 0.2542], dtype=torch.float64))
import torch

w = torch.rand(5, dtype=torch.float64, requires_grad=True)
x = torch.linspace(0, 1, 5, dtype=torch.float64)
loss = ((w * x).sum() - 1.0) ** 2
loss.backward()
print("w.grad:", w.grad)
