# source: variant of 1043_gan_geometry_grad_of_activation_map.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: WGAN-GP gradient penalty helper receiving netD: torch.autograd.grad(outputs=d_interp, inputs=interp) with a per-sample critic output and no grad_outputs
# expect: line 16 — autograd.grad of the (batch, 1) critic output without grad_outputs
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)
import torch
import torch.nn as nn


def gradient_penalty(netD, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_interp = netD(interp)
    grads = torch.autograd.grad(outputs=d_interp, inputs=interp, create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


netD = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
real, fake = torch.randn(8, 16), torch.randn(8, 16)
gp = gradient_penalty(netD, real, fake)
