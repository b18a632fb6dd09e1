# source: negative twin of a variant of 1088_functional_jacobian_without_create_graph.py
# framework: torch
# family: C
# kind: grad-without-create-graph
# negative: both derivatives are taken with create_graph=True, so the PDE residual is differentiated into the network
# mimics: positive/1088_v1_pinn_second_derivative.py
# expect: no finding
# checked: ran; the PDE term's gradients w.r.t. the network parameters are tensors, not None

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
        u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
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
