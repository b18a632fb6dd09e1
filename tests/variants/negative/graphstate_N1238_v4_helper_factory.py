# source: variant of 1238_cuda_copy_of_leaf_grad_none.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: fixed twin: the tensor is created on the device (or requires_grad_() is called after the move), so it is a leaf
# expect: no finding
# checked: ran (FAKECUDA shim where needed), grad is populated (scale.grad: tensor([ 1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10.]))
import torch


def make_param(n):
    return torch.ones(n).cuda().requires_grad_()


scale = make_param(10)
y = scale * torch.linspace(1, 10, 10).cuda()
y.sum().backward()
print("scale.grad:", scale.grad)
