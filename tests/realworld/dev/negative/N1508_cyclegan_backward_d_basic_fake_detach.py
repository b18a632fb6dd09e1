# source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/388
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: the discriminator loss uses fake.detach() so that this backward does not reach the generator; the discriminator's own parameters still get gradients
# mimics: .detach() on the input of a loss
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class GANLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.MSELoss()

    def __call__(self, prediction, target_is_real):
        target = torch.ones_like(prediction) if target_is_real else torch.zeros_like(prediction)
        return self.loss(prediction, target)


class CycleGANModel:
    def __init__(self):
        self.criterionGAN = GANLoss()
        self.netD_A = nn.Sequential(nn.Conv2d(3, 4, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(4, 1, 4, 1, 1))
        self.netG_A = nn.Conv2d(3, 3, 3, padding=1)

    def backward_D_basic(self, netD, real, fake):
        # Real
        pred_real = netD(real)
        loss_D_real = self.criterionGAN(pred_real, True)
        # Fake
        pred_fake = netD(fake.detach())
        loss_D_fake = self.criterionGAN(pred_fake, False)
        # Combined loss
        loss_D = (loss_D_real + loss_D_fake) * 0.5
        # backward
        loss_D.backward()
        return loss_D


model = CycleGANModel()
real_A, real_B = torch.randn(1, 3, 16, 16), torch.randn(1, 3, 16, 16)
fake_B = model.netG_A(real_A)
model.backward_D_basic(model.netD_A, real_B, fake_B)
