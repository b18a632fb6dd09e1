# source: variant of 1168_csa_cdgan_pred_fake_detached_in_g_loss.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: in a train_step(netg, netd, opt_g, ...) function the generator's adversarial prediction is taken as netd(fake).data; .data has no history, so the adversarial term contributes nothing to the generator's gradient
# expect: line 15 — pred_fake = netd(fake).data makes the adversarial term a constant for the generator
# checked: ran, reproduces (err_adv.requires_grad is False)

import torch
import torch.nn as nn


def train_step(netg, netd, opt_g, x, gt, l_bce, l_con, w_adv=1.0, w_con=50.0):
    fake = netg(x)
    pred_fake = netd(fake).data
    err_adv = l_bce(pred_fake, torch.ones_like(pred_fake))
    err_con = l_con(fake, gt)
    err_g = w_adv * err_adv + w_con * err_con
    opt_g.zero_grad()
    err_g.backward()
    opt_g.step()
    return err_adv


netg = nn.Sequential(nn.Conv2d(6, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1), nn.Sigmoid())
netd = nn.Sequential(nn.Conv2d(1, 4, 4, 2, 1), nn.LeakyReLU(0.2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 1), nn.Sigmoid())
opt_g = torch.optim.Adam(netg.parameters(), lr=2e-4)
err_adv = train_step(netg, netd, opt_g, torch.rand(2, 6, 16, 16), torch.rand(2, 1, 16, 16), nn.BCELoss(), nn.L1Loss())
print(err_adv.requires_grad)
