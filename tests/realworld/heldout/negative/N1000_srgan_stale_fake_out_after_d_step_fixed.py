# source: https://github.com/leftthomas/SRGAN/issues/79
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the accepted fix: fake_img and fake_out are recomputed after optimizerD.step(), so the generator loss is built on the updated discriminator
# mimics: positive/1000_srgan_stale_fake_out_after_d_step.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.optim as optim
from torch.autograd import Variable


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.PReLU(), nn.Conv2d(8, 3, 3, padding=1))

    def forward(self, x):
        return (torch.tanh(self.net(x)) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.LeakyReLU(0.2), nn.AdaptiveAvgPool2d(1), nn.Conv2d(8, 1, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x).view(x.size(0)))


class GeneratorLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mse_loss = nn.MSELoss()

    def forward(self, out_labels, out_images, target_images):
        adversarial_loss = torch.mean(1 - out_labels)
        image_loss = self.mse_loss(out_images, target_images)
        return image_loss + 0.001 * adversarial_loss


netG = Generator()
netD = Discriminator()
generator_criterion = GeneratorLoss()
optimizerG = optim.Adam(netG.parameters())
optimizerD = optim.Adam(netD.parameters())

for data, target in [(torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16))]:
    real_img = Variable(target)
    z = Variable(data)
    fake_img = netG(z)

    netD.zero_grad()
    real_out = netD(real_img).mean()
    fake_out = netD(fake_img).mean()
    d_loss = 1 - real_out + fake_out
    d_loss.backward(retain_graph=True)
    optimizerD.step()

    netG.zero_grad()
    fake_img = netG(z)
    fake_out = netD(fake_img).mean()
    g_loss = generator_criterion(fake_out, fake_img, real_img)
    g_loss.backward()
    optimizerG.step()
