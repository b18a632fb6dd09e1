"""GAN step with the generator loss computed on a detached fake batch."""

import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 784), nn.Tanh())
D = nn.Sequential(nn.Linear(784, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
bce = nn.BCEWithLogitsLoss()

for it in range(1000):
    real = torch.rand(32, 784) * 2 - 1
    fake = G(torch.randn(32, 64))

    opt_d.zero_grad()
    d_loss = bce(D(real), torch.ones(32, 1)) + bce(D(fake.detach()), torch.zeros(32, 1))
    d_loss.backward()
    opt_d.step()

    opt_g.zero_grad()
    g_loss = bce(D(fake.detach()), torch.ones(32, 1))  # G gets no gradient (GL103)
    g_loss.backward()
    opt_g.step()
