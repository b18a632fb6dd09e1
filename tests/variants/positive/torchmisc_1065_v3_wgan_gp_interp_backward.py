# source: variant of 1065_backward_create_graph_tanh_leak.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: a WGAN-GP critic step takes the gradient at the interpolates with d_interp.backward(grad, create_graph=True) and reads interpolates.grad; every leaf's .grad (the interpolates and the critic's weights) now holds a graph that references the leaf, a reference cycle that keeps the double-backward graph alive
# expect: line 23 — backward(create_graph=True) stores graph-carrying gradients in .grad; use torch.autograd.grad(d_interp, interpolates, grad_outputs=..., create_graph=True)
# checked: ran, reproduces (the "reference cycle" UserWarning; netD's weight .grad carries a grad_fn after the step)

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
        d_interp.backward(torch.ones_like(d_interp), create_graph=True)
        gradients = interpolates.grad
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
