# source: https://github.com/pytorch/pytorch/issues/12923
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: x and y are created with requires_grad=True and immediately moved with .cuda(), so the names refer to non-leaf copies; after backward x.grad is None while the retained z.grad is populated
# expect: line 11 — torch.randn(..., requires_grad=True).cuda() is a non-leaf copy; its .grad is never filled (create it with device='cuda')
# checked: parse only (needs CUDA; the same happens with .double() on CPU)

import torch

x = torch.randn(4, requires_grad=True).cuda()
y = torch.randn(4, requires_grad=True).cuda()
z = torch.zeros(4)
z = torch.clone(x)
z.retain_grad()
h = (z + y) * z
l = torch.randn(4).cuda()
loss = (l - h).pow(2).sum()
loss.backward()
print('x.grad=', x.grad)
print('z.grad=', z.grad)
print(x)
print(z)
