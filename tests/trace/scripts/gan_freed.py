import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
D = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
bce = nn.BCEWithLogitsLoss()
for step in range(20):
    real = torch.randn(16, 8)
    fake = G(torch.randn(16, 4))
    opt_d.zero_grad()
    d_loss = bce(D(real), torch.ones(16, 1)) + bce(D(fake), torch.zeros(16, 1))
    d_loss.backward()  # expect: GL201
    opt_d.step()
    opt_g.zero_grad()
    g_loss = bce(D(fake), torch.ones(16, 1))
    g_loss.backward()  # also: GL201
    opt_g.step()
