# source: https://github.com/pytorch/examples/issues/116
# framework: torch
# family: C
# kind: backward-twice
# negative: the example's own code: the discriminator is fed fake.detach(), so its backward stops at the generator output and errG.backward() has an intact graph
# mimics: positive/1070_dcgan_missing_detach_backward_twice.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.optim as optim

nz, ngf, ndf = 8, 4, 4
device = torch.device("cpu")
netG = nn.Sequential(nn.ConvTranspose2d(nz, ngf, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True), nn.ConvTranspose2d(ngf, 3, 4, 2, 1, bias=False), nn.Tanh())
netD = nn.Sequential(nn.Conv2d(3, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True), nn.Conv2d(ndf, 1, 4, 1, 0, bias=False), nn.Sigmoid())
criterion = nn.BCELoss()
optimizerD = optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
real_label = 1.
fake_label = 0.
dataloader = [(torch.randn(2, 3, 8, 8), None)]

for i, data in enumerate(dataloader, 0):
    ############################
    # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
    ###########################
    # train with real
    netD.zero_grad()
    real_cpu = data[0].to(device)
    batch_size = real_cpu.size(0)
    label = torch.full((batch_size,), real_label, device=device)

    output = netD(real_cpu).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()

    # train with fake
    noise = torch.randn(batch_size, nz, 1, 1, device=device)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    errD = errD_real + errD_fake
    optimizerD.step()

    ############################
    # (2) Update G network: maximize log(D(G(z)))
    ###########################
    netG.zero_grad()
    label.fill_(real_label)  # fake labels are real for generator cost
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    optimizerG.step()
