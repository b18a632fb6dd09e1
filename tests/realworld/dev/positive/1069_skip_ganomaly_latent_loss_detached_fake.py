# source: https://github.com/samet-akcay/skip-ganomaly/issues/5
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: the discriminator features of the fake image used by the generator's latent loss err_g_lat are computed from self.fake.detach(), so that loss term never updates the generator
# expect: line 39 — feat_fake comes from the discriminator run on the detached fake; err_g_lat has no path to the generator's parameters
# checked: ran, reproduces (err_g_lat contributes no gradient to netg)

import torch
import torch.nn as nn


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2))
        self.classifier = nn.Sequential(nn.Conv2d(8, 1, 8), nn.Sigmoid())

    def forward(self, x):
        features = self.features(x)
        return self.classifier(features).view(-1), features


class Skipganomaly:
    def __init__(self, opt):
        self.opt = opt
        self.netg = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())
        self.netd = Discriminator()
        self.l_adv = nn.BCELoss()
        self.l_con = nn.L1Loss()
        self.l_lat = nn.MSELoss()
        self.optimizer_g = torch.optim.Adam(self.netg.parameters(), lr=2e-4)

    def forward_g(self):
        self.fake = self.netg(self.input)

    def forward_d(self):
        self.pred_real, self.feat_real = self.netd(self.input)
        self.pred_fake, self.feat_fake = self.netd(self.fake.detach())

    def backward_g(self):
        self.err_g_adv = self.opt.w_adv * self.l_adv(self.pred_fake, self.real_label)
        self.err_g_con = self.opt.w_con * self.l_con(self.fake, self.input)
        self.err_g_lat = self.opt.w_lat * self.l_lat(self.feat_fake, self.feat_real)
        self.err_g = self.err_g_adv + self.err_g_con + self.err_g_lat
        self.err_g.backward(retain_graph=True)

    def optimize_params(self, input):
        self.input = input
        self.real_label = torch.ones(input.size(0))
        self.forward_g()
        self.forward_d()
        self.optimizer_g.zero_grad()
        self.backward_g()
        self.optimizer_g.step()


class Opt:
    w_adv, w_con, w_lat = 1, 50, 1


model = Skipganomaly(Opt())
model.optimize_params(torch.randn(2, 3, 16, 16))
