# source: https://github.com/martinarjovsky/WassersteinGAN/blob/master/main.py
# family: A
# negative: critic iterations use G(z).detach() (only the critic is updated there); the generator step recomputes G(z) without detach
# mimics: .detach() on generator output inside a GAN loop
# expect: no finding

import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 2))
C = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 1))
opt_g = torch.optim.RMSprop(G.parameters(), lr=5e-5)
opt_c = torch.optim.RMSprop(C.parameters(), lr=5e-5)

for it in range(100):
    for _ in range(5):
        real = torch.randn(64, 2) + 3
        fake = G(torch.randn(64, 16)).detach()
        c_loss = C(fake).mean() - C(real).mean()
        opt_c.zero_grad()
        c_loss.backward()
        opt_c.step()
        with torch.no_grad():
            for p in C.parameters():
                p.clamp_(-0.01, 0.01)
    g_loss = -C(G(torch.randn(64, 16))).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
