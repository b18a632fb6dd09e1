# source: variant of 1168_csa_cdgan_pred_fake_detached_in_g_loss.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: fixed twin: the generator's adversarial term uses netD(fake) (fake.detach() stays in the discriminator step)
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn

netG = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 8))
netD = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
l1 = nn.L1Loss()
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
lambda_l1 = 100.0

for step in range(2):
    src, tgt = torch.randn(4, 8), torch.randn(4, 8)
    real_label = torch.ones(4, 1)
    fake_label = torch.zeros(4, 1)

    fake = netG(src)

    optimizerD.zero_grad()
    errD = criterion(netD(tgt), real_label) + criterion(netD(fake.detach()), fake_label)
    errD.backward()
    optimizerD.step()

    optimizerG.zero_grad()
    errG = criterion(netD(fake), real_label) + lambda_l1 * l1(fake, tgt)
    errG.backward()
    optimizerG.step()
