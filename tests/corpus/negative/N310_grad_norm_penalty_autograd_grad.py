# source: https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-penalty
# family: C
# negative: gradient-norm penalty via torch.autograd.grad(..., create_graph=True) (no .grad reference cycle), then a single backward of the combined loss
# mimics: backward(create_graph=True) gradient penalty
# expect: no finding

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=1e-2)
lam = 0.1

for step in range(100):
    x, y = torch.randn(16, 32), torch.randn(16, 1)
    loss = nn.functional.mse_loss(model(x), y)
    grads = torch.autograd.grad(loss, list(model.parameters()), create_graph=True)
    grad_norm = sum(g.pow(2).sum() for g in grads)
    opt.zero_grad()
    (loss + lam * grad_norm).backward()
    opt.step()
