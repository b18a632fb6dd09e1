# source: variant of 1088_functional_jacobian_without_create_graph.py
# framework: torch
# family: C
# kind: grad-without-create-graph
# pitfall: a PINN for u'' = f takes u_x with create_graph=True but the second derivative u_xx without it; u_xx is a constant, so the PDE residual term of the loss sends no gradient to the network (only the boundary term trains it)
# expect: line 25 — torch.autograd.grad for u_xx without create_graph=True: the residual built from it is not differentiated back into the network
# checked: ran, reproduces (the gradients of the PDE term w.r.t. every network parameter are None: only the boundary term trains the net)

import torch
import torch.nn as nn


class PINN(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1))

    def forward(self, x):
        return self.net(x)

    def residual(self, x):
        x = x.clone().requires_grad_(True)
        u = self(x)
        u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
        u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x))[0]
        return u_xx + torch.sin(x)


def train(model, steps=2):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x_col = torch.rand(32, 1)
    x_bc = torch.tensor([[0.0], [1.0]])
    for _ in range(steps):
        opt.zero_grad()
        loss_pde = model.residual(x_col).pow(2).mean()
        loss_bc = model(x_bc).pow(2).mean()
        loss = loss_pde + loss_bc
        loss.backward()
        opt.step()
    pde_grads = torch.autograd.grad(model.residual(x_col).pow(2).mean(), list(model.parameters()), allow_unused=True)
    print("network gradients from the PDE term:", pde_grads)


train(PINN())
