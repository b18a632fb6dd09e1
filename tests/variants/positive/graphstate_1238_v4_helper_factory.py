# source: variant of 1238_cuda_copy_of_leaf_grad_none.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: a helper builds the learnable tensor with requires_grad=True and returns it .cuda()'d; the caller only ever sees the non-leaf copy, whose .grad stays None
# expect: line 12 — the helper returns torch.ones(..., requires_grad=True).cuda(), a non-leaf
# checked: ran with a fake-CUDA shim (FAKECUDA: .cuda() returns a non-leaf copy), reproduces (scale.grad: None)
import torch


def make_param(n):
    return torch.ones(n, requires_grad=True).cuda()


scale = make_param(10)
y = scale * torch.linspace(1, 10, 10).cuda()
y.sum().backward()
print("scale.grad:", scale.grad)
