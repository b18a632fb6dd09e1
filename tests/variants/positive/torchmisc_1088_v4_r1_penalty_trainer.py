# source: variant of 1088_functional_jacobian_without_create_graph.py
# framework: torch
# family: C
# kind: grad-without-create-graph
# pitfall: a StyleGAN-style trainer computes the R1 penalty from torch.autograd.grad(outputs=real_pred.sum(), inputs=real_img) without create_graph=True; the gradient is a constant, so the lazy R1 step's backward raises (the penalty has no graph to the discriminator)
# expect: line 23 — torch.autograd.grad without create_graph=True: the R1 penalty built from grad_real is not differentiated into the discriminator
# checked: ran, reproduces (the lazy R1 step raises RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)

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
        grad_real, = torch.autograd.grad(outputs=real_pred.sum(), inputs=real_img)
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
