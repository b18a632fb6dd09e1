# source: negative twin of a variant of 1065_backward_create_graph_tanh_leak.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# negative: the penalty gradient is taken with torch.autograd.grad(d_interp, interpolates, grad_outputs=..., create_graph=True) (the WGAN-GP reference code)
# mimics: positive/1065_v3_wgan_gp_interp_backward.py
# expect: no finding
# checked: ran, no reference-cycle warning; netD's .grad has no grad_fn

import torch
import torch.nn as nn


class WGANGP:
    def __init__(self, netD, lambda_gp=10.0):
        self.netD = netD
        self.optD = torch.optim.Adam(netD.parameters(), lr=1e-4, betas=(0.5, 0.9))
        self.lambda_gp = lambda_gp

    def gradient_penalty(self, real, fake):
        alpha = torch.rand(real.size(0), 1)
        interpolates = (alpha * real + (1 - alpha) * fake).detach().requires_grad_(True)
        d_interp = self.netD(interpolates)
        gradients = torch.autograd.grad(outputs=d_interp, inputs=interpolates,
                                        grad_outputs=torch.ones_like(d_interp), create_graph=True)[0]
        return ((gradients.norm(2, dim=1) - 1) ** 2).mean() * self.lambda_gp

    def critic_step(self, real, fake):
        self.optD.zero_grad()
        gp = self.gradient_penalty(real, fake)
        loss_d = self.netD(fake).mean() - self.netD(real).mean() + gp
        loss_d.backward()
        self.optD.step()
        return loss_d.item()


netD = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
gan = WGANGP(netD)
for _ in range(2):
    gan.critic_step(torch.randn(8, 4), torch.randn(8, 4))
print(netD[0].weight.grad.grad_fn)
