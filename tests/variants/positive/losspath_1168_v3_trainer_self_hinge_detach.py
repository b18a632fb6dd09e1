# source: variant of 1168_csa_cdgan_pred_fake_detached_in_g_loss.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: a GAN Trainer's generator step computes the hinge adversarial loss as -self.disc(fake).detach().mean(); detaching the critic score cuts the path to the generator, so only the reconstruction term trains it
# expect: line 29 — self.disc(fake).detach() in the generator's adversarial term makes it a constant for the generator
# checked: ran, reproduces (adv.requires_grad is False; the generator learns only from the reconstruction term)

import torch
import torch.nn as nn
import torch.nn.functional as F


class GANTrainer:
    def __init__(self, gen, disc):
        self.gen = gen
        self.disc = disc
        self.opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.0, 0.9))
        self.opt_d = torch.optim.Adam(disc.parameters(), lr=4e-4, betas=(0.0, 0.9))

    def d_step(self, real, fake):
        loss_d = F.relu(1.0 - self.disc(real)).mean() + F.relu(1.0 + self.disc(fake.detach())).mean()
        self.opt_d.zero_grad()
        loss_d.backward()
        self.opt_d.step()

    def g_step(self, z, real):
        fake = self.gen(z)
        adv = -self.disc(fake).detach().mean()
        rec = F.l1_loss(fake, real)
        loss_g = adv + 10.0 * rec
        self.opt_g.zero_grad()
        loss_g.backward()
        self.opt_g.step()
        return fake, adv

    def train_step(self, z, real):
        fake, adv = self.g_step(z, real)
        self.d_step(real, fake)
        return adv


trainer = GANTrainer(nn.Linear(4, 8), nn.Linear(8, 1))
adv = trainer.train_step(torch.randn(6, 4), torch.randn(6, 8))
print(adv.requires_grad)
