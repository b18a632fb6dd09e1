# source: synthetic
# family: F
# pitfall: collocation points get xt.requires_grad = True only after u = net(xt) was evaluated, then du/dxt is requested with autograd.grad
# expect: line 15 — the forward pass was recorded before xt required grad: autograd.grad raises "One of the differentiated Tensors appears to not have been used in the graph"

import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 50), nn.Tanh(), nn.Linear(50, 50), nn.Tanh(), nn.Linear(50, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)

for epoch in range(1000):
    xt = torch.rand(500, 2)
    u = net(xt)
    xt.requires_grad = True
    du = torch.autograd.grad(u, xt, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_x, u_t = du[:, :1], du[:, 1:]
    loss = (u_t + u * u_x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
