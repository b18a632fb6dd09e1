# source: https://github.com/pytorch/pytorch/issues/8287
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: `x = torch.randn(..., requires_grad=True).cuda(0)` makes x a non-leaf copy, so after the manual two-stage backward `x.grad` is None (h2, made with detach().requires_grad_(), IS a leaf and its .grad is fine).
# expect: line 23 — `print('x:', x.grad)` reads .grad of the non-leaf result of `.cuda(0)` (None)
# checked: ran via _tools/fakecuda.py, reproduces: h2.grad is a tensor, x.grad prints None (non-leaf warning)
import torch
import torch.nn as nn

x = torch.randn(2, 2, requires_grad=True).cuda(0)
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
