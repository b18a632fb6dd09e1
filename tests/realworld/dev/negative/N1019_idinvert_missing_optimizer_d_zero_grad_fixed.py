# source: https://github.com/Hsintien-Ng/idinvert_pytorch-reproduced/issues/1
# framework: torch
# family: D
# kind: missing-zero-grad
# negative: the author's fix: optimizer_D.zero_grad() before loss_D.backward()
# mimics: positive/1019_idinvert_missing_optimizer_d_zero_grad.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F

G = nn.Sequential(nn.Linear(8, 16), nn.Tanh())
E = nn.Linear(16, 8)
D = nn.Sequential(nn.Linear(16, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
optimizer_E = torch.optim.Adam(E.parameters(), lr=1e-4, betas=(0.9, 0.99))
optimizer_D = torch.optim.Adam(D.parameters(), lr=1e-4, betas=(0.9, 0.99))
for p in G.parameters():
    p.requires_grad_(False)


def training_loop(data_loader, total_iterations):
    for it, x_real in zip(range(total_iterations), data_loader):
        ############################
        # (1) Update D network
        ############################
        w = E(x_real)
        x_rec = G(w)
        x_real.requires_grad_()
        real_score = D(x_real)
        fake_score = D(x_rec.detach())
        loss_real = F.softplus(-real_score).mean()
        loss_fake = F.softplus(fake_score).mean()
        real_grads = torch.autograd.grad(real_score.sum(), x_real, create_graph=True)[0]
        r1_penalty = real_grads.pow(2).sum(dim=1).mean()
        loss_D = loss_real + loss_fake + r1_penalty * (10.0 * 0.5)
        optimizer_D.zero_grad()
        loss_D.backward()
        optimizer_D.step()

        ############################
        # (2) Update E network
        ############################
        w = E(x_real.detach())
        x_rec = G(w)
        loss_pix = F.mse_loss(x_rec, x_real.detach())
        loss_adv = F.softplus(-D(x_rec)).mean()
        loss_E = loss_pix + 0.1 * loss_adv
        optimizer_E.zero_grad()
        loss_E.backward()
        optimizer_E.step()


training_loop([torch.randn(4, 16) for _ in range(3)], 3)
