# source: variant of 3069_cuda0_chain_two_stage_backward.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# negative: fixed twin: the tensor is created on the device (or requires_grad_() is called after the move), so it is a leaf
# expect: no finding
# checked: ran (FAKECUDA shim where needed), grad is populated (        [ 0.0952, -0.0871]]))
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


x = torch.randn(2, 2, device="cuda:0", requires_grad=True)
t = torch.randn(2, 2).to("cuda:0")
l1 = nn.Sequential(nn.Linear(2, 2), nn.Tanh()).to("cuda:0")
l2 = nn.Sequential(nn.Linear(2, 2), nn.Tanh()).to("cuda:0")
two_stage(l1, l2, x, t)
print("x:", x.grad)
