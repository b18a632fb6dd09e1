# source: variant of 1147_gan1d_gradient_penalty_never_added.py
# framework: torch
# family: A
# kind: other-loss-term-not-in-backward
# pitfall: a WGAN-GP Trainer computes the gradient penalty with a self.gradient_penalty method (create_graph=True) and logs it, but the critic loss it backpropagates omits it; the critic is trained without its penalty
# expect: line 30 — loss_d omits gp, which is computed just above and only logged; the penalty has no effect on training
# checked: ran, reproduces (runs silently; the loss that is backpropagated does not contain the penalty term, so gradients are the same as without computing it)

import torch
import torch.nn as nn


class WGANGPTrainer:
    def __init__(self, gen, critic, lambda_gp=10.0):
        self.gen = gen
        self.critic = critic
        self.lambda_gp = lambda_gp
        self.opt_d = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))
        self.logs = {}

    def gradient_penalty(self, real, fake):
        alpha = torch.rand(real.size(0), 1)
        interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
        grad = torch.autograd.grad(self.critic(interp).sum(), interp, create_graph=True)[0]
        return ((grad.norm(2, dim=1) - 1) ** 2).mean()

    def critic_step(self, real, z):
        fake = self.gen(z).detach()
        gp = self.gradient_penalty(real, fake)
        loss_d = self.critic(fake).mean() - self.critic(real).mean()
        self.opt_d.zero_grad()
        loss_d.backward()
        self.opt_d.step()
        self.logs["gp"] = gp.item()
        self.logs["loss_d"] = loss_d.item()


trainer = WGANGPTrainer(nn.Linear(4, 8), nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
trainer.critic_step(torch.randn(6, 8), torch.randn(6, 4))
print(trainer.logs)
