# source: variant of 1043_gan_geometry_grad_of_activation_map.py
# framework: torch
# family: F
# kind: backward-nonscalar
# negative: fixed twin: the output is reduced (.mean()/.sum()) or grad_outputs is passed
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


def gradient_penalty(netD, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_interp = netD(interp)
    grads = torch.autograd.grad(outputs=d_interp, inputs=interp, grad_outputs=torch.ones_like(d_interp), create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


netD = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
real, fake = torch.randn(8, 16), torch.randn(8, 16)
gp = gradient_penalty(netD, real, fake)
