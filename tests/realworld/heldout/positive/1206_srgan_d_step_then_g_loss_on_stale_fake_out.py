# source: https://github.com/leftthomas/SRGAN/issues/89
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the discriminator loss is backpropagated with retain_graph=True and optimizerD.step() updates netD; the generator loss then reuses fake_out, computed by netD before the step, so g_loss.backward() needs netD weights that the step has modified in place
# expect: line 90 — optimizerD.step() runs between the two backward calls over the same netD graph; the answer moves optimizerD.step() (and optimizerG.step()) after both backward calls
# checked: ran, reproduces (RuntimeError: ... modified by an inplace operation ... is at version 2; expected version 1); train.py at d05de45 reduced (small Generator/Discriminator, the VGG perception term dropped from GeneratorLoss, random tensors instead of the DIV2K loader)

import torch
import torch.optim as optim
from torch import nn
from torch.autograd import Variable


class Generator(nn.Module):
    def __init__(self, scale_factor):
        super(Generator, self).__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.PReLU())
        self.block2 = nn.Sequential(nn.Conv2d(16, 3 * scale_factor ** 2, kernel_size=3, padding=1),
                                    nn.PixelShuffle(scale_factor))

    def forward(self, x):
        return (torch.tanh(self.block2(self.block1(x))) + 1) / 2


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1),
            nn.LeakyReLU(0.2),
            nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
            nn.BatchNorm2d(16),
            nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(16, 1, kernel_size=1)
        )

    def forward(self, x):
        batch_size = x.size(0)
        return torch.sigmoid(self.net(x).view(batch_size))


class GeneratorLoss(nn.Module):
    def __init__(self):
        super(GeneratorLoss, self).__init__()
        self.mse_loss = nn.MSELoss()

    def forward(self, out_labels, out_images, target_images):
        # Adversarial Loss
        adversarial_loss = torch.mean(1 - out_labels)
        # Image Loss
        image_loss = self.mse_loss(out_images, target_images)
        return image_loss + 0.001 * adversarial_loss


UPSCALE_FACTOR = 2
NUM_EPOCHS = 1
train_loader = [(torch.rand(4, 3, 8, 8), torch.rand(4, 3, 16, 16)) for _ in range(2)]

netG = Generator(UPSCALE_FACTOR)
netD = Discriminator()
generator_criterion = GeneratorLoss()

optimizerG = optim.Adam(netG.parameters())
optimizerD = optim.Adam(netD.parameters())

for epoch in range(1, NUM_EPOCHS + 1):
    running_results = {'batch_sizes': 0, 'd_loss': 0, 'g_loss': 0, 'd_score': 0, 'g_score': 0}

    netG.train()
    netD.train()
    for data, target in train_loader:
        g_update_first = True
        batch_size = data.size(0)
        running_results['batch_sizes'] += batch_size

        ############################
        # (1) Update D network: maximize D(x)-1-D(G(z))
        ###########################
        real_img = Variable(target)
        z = Variable(data)
        fake_img = netG(z)

        netD.zero_grad()
        real_out = netD(real_img).mean()
        fake_out = netD(fake_img).mean()
        d_loss = 1 - real_out + fake_out
        d_loss.backward(retain_graph=True)
        optimizerD.step()

        ############################
        # (2) Update G network: minimize 1-D(G(z)) + Perception Loss + Image Loss + TV Loss
        ###########################
        netG.zero_grad()
        g_loss = generator_criterion(fake_out, fake_img, real_img)
        g_loss.backward()

        fake_img = netG(z)
        fake_out = netD(fake_img).mean()

        optimizerG.step()

        # loss for current batch before optimization
        running_results['g_loss'] += g_loss.item() * batch_size
        running_results['d_loss'] += d_loss.item() * batch_size
        running_results['d_score'] += real_out.item() * batch_size
        running_results['g_score'] += fake_out.item() * batch_size
