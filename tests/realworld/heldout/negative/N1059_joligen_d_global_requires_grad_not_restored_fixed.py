# source: https://github.com/jolibrain/joliGEN/pull/120
# framework: torch
# family: D
# kind: frozen-but-trained
# negative: the merged fix: requires_grad is set back to True for netD_global as well before the discriminator backward
# mimics: positive/1059_joligen_d_global_requires_grad_not_restored.py
# expect: no finding
# checked: ran, no error

import itertools
import torch
import torch.nn as nn


class CycleGANModel:
    def __init__(self):
        self.netG_A = nn.Conv2d(3, 3, 3, padding=1)
        self.netG_B = nn.Conv2d(3, 3, 3, padding=1)
        self.netD_A = nn.Conv2d(3, 1, 4, 2, 1)
        self.netD_B = nn.Conv2d(3, 1, 4, 2, 1)
        self.netD_global = nn.Sequential(nn.Conv2d(3, 1, 4, 2, 1), nn.AdaptiveAvgPool2d(1))
        self.criterionGAN = nn.MSELoss()
        self.optimizer_G = torch.optim.Adam(itertools.chain(self.netG_A.parameters(), self.netG_B.parameters()), lr=2e-4)
        self.optimizer_D = torch.optim.Adam(itertools.chain(self.netD_A.parameters(), self.netD_B.parameters(), self.netD_global.parameters()), lr=2e-4)

    def set_requires_grad(self, nets, requires_grad=False):
        if not isinstance(nets, list):
            nets = [nets]
        for net in nets:
            if net is not None:
                for param in net.parameters():
                    param.requires_grad = requires_grad

    def forward(self, real_A, real_B):
        self.real_A, self.real_B = real_A, real_B
        self.fake_B = self.netG_A(real_A)
        self.fake_A = self.netG_B(real_B)

    def backward_G(self):
        pred = self.netD_A(self.fake_B)
        pred_g = self.netD_global(self.fake_B)
        self.loss_G = self.criterionGAN(pred, torch.ones_like(pred)) + self.criterionGAN(pred_g, torch.ones_like(pred_g))
        self.loss_G.backward()

    def backward_D_basic(self, netD, real, fake):
        pred_real = netD(real)
        pred_fake = netD(fake.detach())
        loss_D = (self.criterionGAN(pred_real, torch.ones_like(pred_real)) + self.criterionGAN(pred_fake, torch.zeros_like(pred_fake))) * 0.5
        loss_D.backward()
        return loss_D

    def optimize_parameters(self, real_A, real_B):
        self.forward(real_A, real_B)
        # G_A and G_B
        self.set_requires_grad([self.netD_A, self.netD_B, self.netD_global], False)
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()
        # D_A and D_B
        self.set_requires_grad([self.netD_A, self.netD_B, self.netD_global], True)
        self.optimizer_D.zero_grad()
        self.backward_D_basic(self.netD_A, self.real_B, self.fake_B)
        self.backward_D_basic(self.netD_B, self.real_A, self.fake_A)
        self.backward_D_basic(self.netD_global, self.real_B, self.fake_B)
        self.optimizer_D.step()


model = CycleGANModel()
before = [p.clone() for p in model.netD_global.parameters()]
model.optimize_parameters(torch.randn(1, 3, 8, 8), torch.randn(1, 3, 8, 8))
