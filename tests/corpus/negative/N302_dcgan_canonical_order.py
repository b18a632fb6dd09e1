# source: https://pytorch.org/tutorials/beginner/dcgan_faces_tutorial.html
# family: C
# negative: canonical DCGAN order: the D step uses fake.detach(), so G's graph is still intact when the G step backpropagates D(fake)
# mimics: one fake batch reused by the discriminator and generator losses
# expect: no finding

import torch
import torch.nn as nn

netG = nn.Sequential(nn.Linear(100, 256), nn.ReLU(), nn.Linear(256, 784), nn.Tanh())
netD = nn.Sequential(nn.Linear(784, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1), nn.Sigmoid())
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
criterion = nn.BCELoss()

for i in range(10):
    real = torch.rand(64, 784) * 2 - 1
    fake = netG(torch.randn(64, 100))

    netD.zero_grad()
    errD = criterion(netD(real).view(-1), torch.ones(64)) + criterion(netD(fake.detach()).view(-1), torch.zeros(64))
    errD.backward()
    optD.step()

    netG.zero_grad()
    errG = criterion(netD(fake).view(-1), torch.ones(64))
    errG.backward()
    optG.step()
