# source: variant of 1043_gan_geometry_grad_of_activation_map.py
# framework: torch
# family: F
# kind: backward-nonscalar
# negative: fixed twin: the output is reduced (.mean()/.sum()) or grad_outputs is passed
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn
import torch.nn.functional as F


class GANTrainer:
    def __init__(self, nz=8):
        self.nz = nz
        self.netG = nn.Sequential(nn.Linear(nz, 16), nn.Tanh())
        self.netD = nn.Sequential(nn.Linear(16, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
        self.optD = torch.optim.Adam(self.netD.parameters(), lr=2e-4)

    def r1_penalty(self, real):
        real = real.detach().requires_grad_(True)
        d_real = self.netD(real)
        (grad_real,) = torch.autograd.grad(d_real.sum(), real, create_graph=True)
        return grad_real.pow(2).sum(1).mean()

    def d_step(self, real):
        fake = self.netG(torch.randn(real.size(0), self.nz)).detach()
        loss = F.softplus(self.netD(fake)).mean() + F.softplus(-self.netD(real)).mean()
        loss = loss + 10.0 * self.r1_penalty(real)
        self.optD.zero_grad()
        loss.backward()
        self.optD.step()


GANTrainer().d_step(torch.randn(4, 16))
