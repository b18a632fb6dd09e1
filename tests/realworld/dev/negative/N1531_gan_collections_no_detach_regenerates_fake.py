# source: https://github.com/znxlwm/pytorch-generative-model-collections/issues/4
# framework: torch
# family: C
# kind: backward-twice
# negative: GAN.train feeds the discriminator step self.G(z_) without detach; the answer (pointing to pytorch/examples#116) is that this only costs time: D_loss.backward() also fills G's gradients, but G_optimizer.zero_grad() clears them and the generator step recomputes G_ and D_fake, so no graph is backpropagated twice and each optimizer applies only its own loss
# mimics: a GAN discriminator step on non-detached generator output
# expect: no finding
# checked: ran, no error; GAN.py train() at 0d183bb verbatim apart from the epoch bookkeeping, visualisation and saving; small G and D, random data

import torch
import torch.nn as nn
import torch.optim as optim


class generator(nn.Module):
    def __init__(self, input_dim=62, output_dim=1, input_size=8):
        super(generator, self).__init__()
        self.fc = nn.Sequential(nn.Linear(input_dim, 64), nn.BatchNorm1d(64), nn.ReLU(),
                                nn.Linear(64, output_dim * input_size * input_size), nn.Tanh())
        self.output_dim, self.input_size = output_dim, input_size

    def forward(self, input):
        return self.fc(input).view(-1, self.output_dim, self.input_size, self.input_size)


class discriminator(nn.Module):
    def __init__(self, input_dim=1, output_dim=1, input_size=8):
        super(discriminator, self).__init__()
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(input_dim * input_size * input_size, 64),
                                nn.LeakyReLU(0.2), nn.Linear(64, output_dim), nn.Sigmoid())

    def forward(self, input):
        return self.fc(input)


class GAN(object):
    def __init__(self, data_loader, batch_size=4, z_dim=62, epoch=1):
        self.epoch = epoch
        self.batch_size = batch_size
        self.gpu_mode = False
        self.z_dim = z_dim
        self.data_loader = data_loader
        self.G = generator(input_dim=self.z_dim)
        self.D = discriminator()
        self.G_optimizer = optim.Adam(self.G.parameters(), lr=0.0002, betas=(0.5, 0.999))
        self.D_optimizer = optim.Adam(self.D.parameters(), lr=0.0002, betas=(0.5, 0.999))
        self.BCE_loss = nn.BCELoss()

    def train(self):
        self.train_hist = {}
        self.train_hist['D_loss'] = []
        self.train_hist['G_loss'] = []

        self.y_real_, self.y_fake_ = torch.ones(self.batch_size, 1), torch.zeros(self.batch_size, 1)
        if self.gpu_mode:
            self.y_real_, self.y_fake_ = self.y_real_.cuda(), self.y_fake_.cuda()

        self.D.train()
        print('training start!!')
        for epoch in range(self.epoch):
            self.G.train()
            for iter, (x_, _) in enumerate(self.data_loader):
                z_ = torch.rand((self.batch_size, self.z_dim))
                if self.gpu_mode:
                    x_, z_ = x_.cuda(), z_.cuda()

                # update D network
                self.D_optimizer.zero_grad()

                D_real = self.D(x_)
                D_real_loss = self.BCE_loss(D_real, self.y_real_)

                G_ = self.G(z_)
                D_fake = self.D(G_)
                D_fake_loss = self.BCE_loss(D_fake, self.y_fake_)

                D_loss = D_real_loss + D_fake_loss
                self.train_hist['D_loss'].append(D_loss.item())

                D_loss.backward()
                self.D_optimizer.step()

                # update G network
                self.G_optimizer.zero_grad()

                G_ = self.G(z_)
                D_fake = self.D(G_)
                G_loss = self.BCE_loss(D_fake, self.y_real_)
                self.train_hist['G_loss'].append(G_loss.item())

                G_loss.backward()
                self.G_optimizer.step()


gan = GAN([(torch.rand(4, 1, 8, 8) * 2 - 1, None) for _ in range(3)])
gan.train()
