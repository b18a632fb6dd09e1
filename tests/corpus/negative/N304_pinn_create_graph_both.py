# source: https://github.com/maziarraissi/PINNs
# family: C
# negative: PINN residual: every derivative that is differentiated again (and the residual itself) is computed with create_graph=True; inputs require grad before the forward
# mimics: nested torch.autograd.grad calls in a loss
# expect: no finding

import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)


def residual(x, t, alpha=0.1):
    x.requires_grad_(True)
    t.requires_grad_(True)
    u = net(torch.cat([x, t], dim=1))
    ones = torch.ones_like(u)
    u_t, u_x = torch.autograd.grad(u, (t, x), grad_outputs=ones, create_graph=True)
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
    return u_t - alpha * u_xx


for it in range(100):
    loss = residual(torch.rand(256, 1), torch.rand(256, 1)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
