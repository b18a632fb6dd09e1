# source: variant of 1168_csa_cdgan_pred_fake_detached_in_g_loss.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: the generator's adversarial term is computed from netD(fake.detach()) (the discriminator-step spelling copied into the generator step), so no gradient reaches the generator through it
# expect: line 24 — netD(fake.detach()) in the generator loss cuts the adversarial term off from netG
# checked: ran, reproduces (autograd.grad of the adversarial term w.r.t. netG parameters: all None)

import torch
import torch.nn as nn


def train_step(netG, netD, opt_G, opt_D, criterion, real, z):
    ones = torch.ones(real.size(0), 1)
    zeros = torch.zeros(real.size(0), 1)

    fake = netG(z)
    opt_D.zero_grad()
    loss_D = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
    loss_D.backward()
    opt_D.step()

    opt_G.zero_grad()
    loss_adv = criterion(netD(fake.detach()), ones)
    loss_feat = (fake.mean(0) - real.mean(0)).pow(2).sum()
    loss_G = loss_adv + 0.1 * loss_feat
    loss_G.backward()
    opt_G.step()
    return loss_adv


netG = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
netD = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_G = torch.optim.Adam(netG.parameters(), lr=2e-4)
opt_D = torch.optim.Adam(netD.parameters(), lr=2e-4)
loss_adv = train_step(netG, netD, opt_G, opt_D, nn.BCEWithLogitsLoss(), torch.randn(8, 8), torch.randn(8, 4))
