# source: negative twin of 1168_v1_pix2pix_backward_G_self.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: none: backward_G keeps the graph through netD (the D step detaches fake_B, as intended)
# checked: ran (no error; gradients reach the model)

import torch
import torch.nn as nn


class GANLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.BCEWithLogitsLoss()

    def __call__(self, prediction, target_is_real):
        target = torch.ones_like(prediction) if target_is_real else torch.zeros_like(prediction)
        return self.loss(prediction, target)


class Pix2PixModel:
    def __init__(self):
        self.netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())
        self.netD = nn.Sequential(nn.Conv2d(6, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 4, 1, 1))
        self.criterionGAN = GANLoss()
        self.criterionL1 = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.lambda_L1 = 100.0

    def set_input(self, A, B):
        self.real_A, self.real_B = A, B

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_D(self):
        pred_fake = self.netD(torch.cat((self.real_A, self.fake_B), 1).detach())
        pred_real = self.netD(torch.cat((self.real_A, self.real_B), 1))
        self.loss_D = 0.5 * (self.criterionGAN(pred_fake, False) + self.criterionGAN(pred_real, True))
        self.loss_D.backward()

    def backward_G(self):
        fake_AB = torch.cat((self.real_A, self.fake_B), 1)
        pred_fake = self.netD(fake_AB)
        self.loss_G_GAN = self.criterionGAN(pred_fake, True)
        self.loss_G_L1 = self.criterionL1(self.fake_B, self.real_B) * self.lambda_L1
        self.loss_G = self.loss_G_GAN + self.loss_G_L1
        self.loss_G.backward()

    def optimize_parameters(self):
        self.forward()
        self.optimizer_D.zero_grad()
        self.backward_D()
        self.optimizer_D.step()
        self.optimizer_G.zero_grad()
        self.backward_G()
        self.optimizer_G.step()


if __name__ == "__main__":
    m = Pix2PixModel()
    m.set_input(torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16))
    m.optimize_parameters()
    pass
