# source: https://github.com/knazeri/edge-connect/issues/152
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: EdgeModel.backward runs dis_loss.backward() and self.dis_optimizer.step() before gen_loss.backward(); the generator's adversarial loss went through the discriminator, whose weights the step has just updated in place
# expect: line 160 — dis_optimizer.step() modifies the discriminator weights saved by the generator loss's graph; gen_loss.backward() then fails ("is at version 2; expected version 1"); the thread's fix runs the generator's backward and step first
# checked: ran, reproduces (RuntimeError: ... modified by an inplace operation ... is at version 2; expected version 1); reduced from src/models.py, networks.py, loss.py (smaller generator and discriminator, config as a namespace)

from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.optim as optim


def spectral_norm(module, mode=True):
    if mode:
        return nn.utils.spectral_norm(module)

    return module


class EdgeGenerator(nn.Module):
    def __init__(self, use_spectral_norm=True):
        super(EdgeGenerator, self).__init__()
        self.net = nn.Sequential(
            spectral_norm(nn.Conv2d(in_channels=3, out_channels=16, kernel_size=3, padding=1), use_spectral_norm),
            nn.ReLU(True),
            nn.Conv2d(in_channels=16, out_channels=1, kernel_size=3, padding=1),
        )

    def forward(self, x):
        x = self.net(x)
        x = torch.sigmoid(x)
        return x


class Discriminator(nn.Module):
    def __init__(self, in_channels, use_sigmoid=True, use_spectral_norm=True):
        super(Discriminator, self).__init__()
        self.use_sigmoid = use_sigmoid

        self.conv1 = self.features = nn.Sequential(
            spectral_norm(nn.Conv2d(in_channels=in_channels, out_channels=16, kernel_size=4, stride=2, padding=1, bias=not use_spectral_norm), use_spectral_norm),
            nn.LeakyReLU(0.2, inplace=True),
        )

        self.conv2 = nn.Sequential(
            spectral_norm(nn.Conv2d(in_channels=16, out_channels=1, kernel_size=4, stride=1, padding=1, bias=not use_spectral_norm), use_spectral_norm),
        )

    def forward(self, x):
        conv1 = self.conv1(x)
        conv2 = self.conv2(conv1)

        outputs = conv2
        if self.use_sigmoid:
            outputs = torch.sigmoid(conv2)

        return outputs, [conv1, conv2]


class AdversarialLoss(nn.Module):
    def __init__(self, type='nsgan', target_real_label=1.0, target_fake_label=0.0):
        super(AdversarialLoss, self).__init__()

        self.type = type
        self.register_buffer('real_label', torch.tensor(target_real_label))
        self.register_buffer('fake_label', torch.tensor(target_fake_label))
        self.criterion = nn.BCELoss()

    def __call__(self, outputs, is_real, is_disc=None):
        labels = (self.real_label if is_real else self.fake_label).expand_as(outputs)
        loss = self.criterion(outputs, labels)
        return loss


class EdgeModel(nn.Module):
    def __init__(self, config):
        super(EdgeModel, self).__init__()
        self.config = config
        self.iteration = 0

        generator = EdgeGenerator(use_spectral_norm=True)
        discriminator = Discriminator(in_channels=2, use_sigmoid=config.GAN_LOSS != 'hinge')
        l1_loss = nn.L1Loss()
        adversarial_loss = AdversarialLoss(type=config.GAN_LOSS)

        self.add_module('generator', generator)
        self.add_module('discriminator', discriminator)

        self.add_module('l1_loss', l1_loss)
        self.add_module('adversarial_loss', adversarial_loss)

        self.gen_optimizer = optim.Adam(
            params=generator.parameters(),
            lr=float(config.LR),
            betas=(config.BETA1, config.BETA2)
        )

        self.dis_optimizer = optim.Adam(
            params=discriminator.parameters(),
            lr=float(config.LR) * float(config.D2G_LR),
            betas=(config.BETA1, config.BETA2)
        )

    def process(self, images, edges, masks):
        self.iteration += 1

        # zero optimizers
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()

        # process outputs
        outputs = self(images, edges, masks)
        gen_loss = 0
        dis_loss = 0

        # discriminator loss
        dis_input_real = torch.cat((images, edges), dim=1)
        dis_input_fake = torch.cat((images, outputs.detach()), dim=1)
        dis_real, dis_real_feat = self.discriminator(dis_input_real)        # in: (grayscale(1) + edge(1))
        dis_fake, dis_fake_feat = self.discriminator(dis_input_fake)        # in: (grayscale(1) + edge(1))
        dis_real_loss = self.adversarial_loss(dis_real, True, True)
        dis_fake_loss = self.adversarial_loss(dis_fake, False, True)
        dis_loss += (dis_real_loss + dis_fake_loss) / 2

        # generator adversarial loss
        gen_input_fake = torch.cat((images, outputs), dim=1)
        gen_fake, gen_fake_feat = self.discriminator(gen_input_fake)        # in: (grayscale(1) + edge(1))
        gen_gan_loss = self.adversarial_loss(gen_fake, True, False)
        gen_loss += gen_gan_loss

        # generator feature matching loss
        gen_fm_loss = 0
        for i in range(len(dis_real_feat)):
            gen_fm_loss += self.l1_loss(gen_fake_feat[i], dis_real_feat[i].detach())
        gen_fm_loss = gen_fm_loss * self.config.FM_LOSS_WEIGHT
        gen_loss += gen_fm_loss

        # create logs
        logs = [
            ("l_d1", dis_loss.item()),
            ("l_g1", gen_gan_loss.item()),
            ("l_fm", gen_fm_loss.item()),
        ]

        return outputs, gen_loss, dis_loss, logs

    def forward(self, images, edges, masks):
        edges_masked = (edges * (1 - masks))
        images_masked = (images * (1 - masks)) + masks
        inputs = torch.cat((images_masked, edges_masked, masks), dim=1)
        outputs = self.generator(inputs)                                    # in: [grayscale(1) + edge(1) + mask(1)]
        return outputs

    def backward(self, gen_loss=None, dis_loss=None):
        if dis_loss is not None:
            dis_loss.backward()
        self.dis_optimizer.step()

        if gen_loss is not None:
            gen_loss.backward()
        self.gen_optimizer.step()


config = SimpleNamespace(GAN_LOSS='nsgan', LR=1e-4, BETA1=0.0, BETA2=0.9, D2G_LR=0.1, FM_LOSS_WEIGHT=10)
edge_model = EdgeModel(config)
images, edges = torch.rand(2, 1, 16, 16), (torch.rand(2, 1, 16, 16) > 0.8).float()
masks = (torch.rand(2, 1, 16, 16) > 0.5).float()
outputs, gen_loss, dis_loss, logs = edge_model.process(images, edges, masks)
edge_model.backward(gen_loss, dis_loss)
