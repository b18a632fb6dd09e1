# source: https://github.com/martinarjovsky/WassersteinGAN/blob/master/main.py
# family: D
# negative: original WGAN weight clipping: in-place clamp of the critic *parameters* through .data after the optimizer step (no activation is modified)
# mimics: .data mutation / in-place op on tensors that require grad
# expect: no finding

import torch
import torch.nn as nn

critic = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 1))
gen = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 2))
opt_c = torch.optim.RMSprop(critic.parameters(), lr=5e-5)

for it in range(100):
    real = torch.randn(64, 2)
    with torch.no_grad():
        fake = gen(torch.randn(64, 8))
    loss_c = critic(fake).mean() - critic(real).mean()
    opt_c.zero_grad()
    loss_c.backward()
    opt_c.step()
    for p in critic.parameters():
        p.data.clamp_(-0.01, 0.01)
