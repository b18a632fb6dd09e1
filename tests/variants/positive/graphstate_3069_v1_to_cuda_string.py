# source: variant of 3069_cuda0_chain_two_stage_backward.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: two-stage manual backward where the input is created with requires_grad=True and then moved with .to("cuda:0"); x is a non-leaf copy and x.grad is None
# expect: line 22 — torch.randn(..., requires_grad=True).to("cuda:0") keeps only the non-leaf copy
# checked: ran with a fake-CUDA shim (FAKECUDA), reproduces (x: None)
import torch
import torch.nn as nn
import torch.nn.functional as F


def two_stage(l1, l2, x, t):
    h1 = l1(x)
    h2 = h1.detach().requires_grad_()
    loss = F.mse_loss(l2(h2), t)
    loss.backward()
    h1.backward(gradient=h2.grad)
    return h2.grad


x = torch.randn(2, 2, requires_grad=True).to("cuda:0")
t = torch.randn(2, 2).to("cuda:0")
l1 = nn.Sequential(nn.Linear(2, 2), nn.Tanh()).to("cuda:0")
l2 = nn.Sequential(nn.Linear(2, 2), nn.Tanh()).to("cuda:0")
two_stage(l1, l2, x, t)
print("x:", x.grad)
