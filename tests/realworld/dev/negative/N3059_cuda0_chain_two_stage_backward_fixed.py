# source: https://github.com/pytorch/pytorch/issues/8287
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: fix from the maintainer's answer (zou3519): create x directly on the device with `device='cuda:0'` so x is a leaf and accumulates .grad.
# expect: no finding
# checked: ran via _tools/fakecuda.py: x.grad is populated
import torch
import torch.nn as nn

x = torch.randn(2, 2, requires_grad=True, device='cuda:0')
t = torch.randn(2, 2).cuda(0)
loss_func = nn.MSELoss().cuda(0)
l1 = nn.Sequential(*[nn.Linear(2, 2) for _ in range(3)]).cuda(0)
l2 = nn.Sequential(*[nn.Linear(2, 2) for _ in range(3)]).cuda(0)
h1 = l1(x)
h2 = h1.detach().requires_grad_()
h3 = l2(h2)
l = loss_func(h3, t)
l.backward()
print('h2:', h2.grad)
h1.backward(gradient=h2.grad)
print('x:', x.grad)
