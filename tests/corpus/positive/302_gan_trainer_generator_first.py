# source: https://pytorch.org/tutorials/beginner/dcgan_faces_tutorial.html
# family: C
# pitfall: GAN trainer updates the generator first and then reuses the same (non-detached) fake batch for the discriminator loss
# expect: line 31 — d_loss backpropagates through G's graph, which g_loss.backward() already freed: "Trying to backward through the graph a second time"

import torch
import torch.nn as nn


class GANTrainer:
    def __init__(self, z_dim=32):
        self.G = nn.Sequential(nn.Linear(z_dim, 128), nn.ReLU(), nn.Linear(128, 2))
        self.D = nn.Sequential(nn.Linear(2, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-4)
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-4)
        self.bce = nn.BCEWithLogitsLoss()
        self.z_dim = z_dim

    def step(self, real):
        n = real.size(0)
        ones, zeros = torch.ones(n, 1), torch.zeros(n, 1)
        fake = self.G(torch.randn(n, self.z_dim))

        self.opt_g.zero_grad()
        g_loss = self.bce(self.D(fake), ones)
        g_loss.backward()
        self.opt_g.step()

        self.opt_d.zero_grad()
        d_loss = self.bce(self.D(real), ones) + self.bce(self.D(fake), zeros)
        d_loss.backward()
        self.opt_d.step()
        return g_loss.item(), d_loss.item()


trainer = GANTrainer()
print(trainer.step(torch.randn(64, 2)))
