# source: negative twin of a variant of 1088_functional_jacobian_without_create_graph.py
# framework: torch
# family: C
# kind: grad-without-create-graph
# negative: the R1 gradient is taken with create_graph=True, as in StyleGAN2's d_r1_loss
# mimics: positive/1088_v4_r1_penalty_trainer.py
# expect: no finding
# checked: ran, no error (the lazy R1 step trains the discriminator)

import torch
import torch.nn as nn
import torch.nn.functional as F


class GANTrainer:
    def __init__(self, generator, discriminator, r1_gamma=10.0, d_reg_every=16):
        self.G = generator
        self.D = discriminator
        self.d_optim = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.0, 0.99))
        self.r1_gamma = r1_gamma
        self.d_reg_every = d_reg_every

    def d_r1_loss(self, real_pred, real_img):
        grad_real, = torch.autograd.grad(outputs=real_pred.sum(), inputs=real_img, create_graph=True)
        return grad_real.pow(2).reshape(grad_real.shape[0], -1).sum(1).mean()

    def discriminator_step(self, i, real_img, z):
        fake_pred = self.D(self.G(z).detach())
        real_pred = self.D(real_img)
        d_loss = F.softplus(fake_pred).mean() + F.softplus(-real_pred).mean()
        self.d_optim.zero_grad()
        d_loss.backward()
        self.d_optim.step()

        if i % self.d_reg_every == 0:
            real_img.requires_grad = True
            real_pred = self.D(real_img)
            r1_loss = self.d_r1_loss(real_pred, real_img)
            self.d_optim.zero_grad()
            (self.r1_gamma / 2 * r1_loss * self.d_reg_every).backward()
            self.d_optim.step()
        return d_loss.item()


G = nn.Sequential(nn.Linear(4, 8))
D = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
trainer = GANTrainer(G, D)
for i in range(2):
    trainer.discriminator_step(i, torch.randn(6, 8), torch.randn(6, 4))
