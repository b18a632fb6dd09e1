# source: https://github.com/maziarraissi/PINNs
# family: C
# pitfall: PINN residual u_t - alpha * u_xx: the first-derivative torch.autograd.grad call omits create_graph=True before being differentiated again
# expect: line 18 — u_x is computed without create_graph: it has no graph, so the second derivative u_xx (and the PDE loss) cannot be differentiated

import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)


def residual(x, t, alpha=0.1):
    x.requires_grad_(True)
    t.requires_grad_(True)
    u = net(torch.cat([x, t], dim=1))
    u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u))[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
    return u_t - alpha * u_xx


for it in range(100):
    x, t = torch.rand(256, 1), torch.rand(256, 1)
    loss = residual(x, t).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
