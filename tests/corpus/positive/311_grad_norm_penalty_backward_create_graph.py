# source: https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html
# family: C
# pitfall: gradient-norm regulariser built by calling loss.backward(create_graph=True) and then differentiating the norm of p.grad
# expect: line 17 — backward(create_graph=True) stores graph-carrying tensors in p.grad (parameter <-> grad reference cycle, memory leak warning); use torch.autograd.grad(..., create_graph=True)

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=1e-2)
lam = 0.1

for step in range(100):
    x, y = torch.randn(16, 32), torch.randn(16, 1)
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward(create_graph=True)
    grad_norm = sum(p.grad.pow(2).sum() for p in model.parameters())
    (lam * grad_norm).backward()
    opt.step()
