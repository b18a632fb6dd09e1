# source: variant of 1043_gan_geometry_grad_of_activation_map.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: GAN trainer with self.netG/self.netD: the R1 penalty calls torch.autograd.grad on the per-sample discriminator scores without grad_outputs
# expect: line 23 — torch.autograd.grad(d_real, real) on a non-scalar output
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)
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
        (grad_real,) = torch.autograd.grad(d_real, real, create_graph=True)
        return grad_real.pow(2).sum(1).mean()

    def d_step(self, real):
        fake = self.netG(torch.randn(real.size(0), self.nz)).detach()
        loss = F.softplus(self.netD(fake)).mean() + F.softplus(-self.netD(real)).mean()
        loss = loss + 10.0 * self.r1_penalty(real)
        self.optD.zero_grad()
        loss.backward()
        self.optD.step()


GANTrainer().d_step(torch.randn(4, 16))
