# source: https://github.com/rosinality/stylegan2-pytorch/blob/master/train.py
# family: C
# pitfall: R1 regularisation: gradient of D(real) w.r.t. the real images taken with torch.autograd.grad without create_graph=True
# expect: line 18 — without create_graph the penalty is not differentiable (and the call frees D's graph, so d_loss.backward() then fails)

import torch
import torch.nn as nn
import torch.nn.functional as F

D = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1))
d_opt = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.99))
r1_gamma = 10.0


def d_step(real, fake):
    real = real.detach().requires_grad_(True)
    real_logits = D(real)
    (grad_real,) = torch.autograd.grad(real_logits.sum(), real)
    r1 = grad_real.pow(2).reshape(grad_real.size(0), -1).sum(1).mean()
    d_loss = F.softplus(-real_logits).mean() + F.softplus(D(fake.detach())).mean() + r1_gamma / 2 * r1
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()


d_step(torch.randn(8, 3, 32, 32), torch.randn(8, 3, 32, 32))
