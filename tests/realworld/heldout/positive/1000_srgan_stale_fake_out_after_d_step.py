# source: https://github.com/leftthomas/SRGAN/issues/79
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the generator loss reuses fake_out computed through netD before optimizerD.step() updated netD's weights in place, so g_loss.backward() needs tensors that were modified
# expect: line 60 — optimizerD.step() modifies netD's parameters in place while the retained graph of fake_out (reused by g_loss) still needs them
# checked: ran, reproduces

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
    g_loss = generator_criterion(fake_out, fake_img, real_img)
    g_loss.backward()
    optimizerG.step()
