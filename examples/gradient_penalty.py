"""WGAN-GP critic step: the penalty's gradients are constants without create_graph=True."""

import torch
import torch.nn as nn

critic = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.5, 0.9))


def gradient_penalty(real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interp)
    (grads,) = torch.autograd.grad(out, interp, grad_outputs=torch.ones_like(out))  # GL203 (safe fix)
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


for step in range(100):
    real, fake = torch.randn(64, 2), torch.randn(64, 2)
    loss = critic(fake).mean() - critic(real).mean() + 10.0 * gradient_penalty(real, fake)
    opt.zero_grad()
    loss.backward()
    opt.step()
