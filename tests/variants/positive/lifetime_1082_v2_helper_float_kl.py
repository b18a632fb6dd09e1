# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: the KL helper returns float(...) of the KL tensor, so the KL term added to the VAE loss is a Python constant and the encoder's variance head gets no gradient from it
# expect: line 16 — float() of the KL tensor leaves autograd; return the tensor
# checked: ran, reproduces (the KL helper returns a Python float: the term is a constant in the loss)

import torch
import torch.nn as nn
import torch.nn.functional as F


def kl_divergence(mu, logvar):
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1).mean()
    return float(kl)


class VAE(nn.Module):
    def __init__(self, x_dim=16, z_dim=4):
        super().__init__()
        self.mu = nn.Linear(x_dim, z_dim)
        self.logvar = nn.Linear(x_dim, z_dim)
        self.dec = nn.Linear(z_dim, x_dim)

    def forward(self, x):
        mu, logvar = self.mu(x), self.logvar(x)
        z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)
        return self.dec(z), mu, logvar


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(8, 16)
recon, mu, logvar = model(x)
loss = F.mse_loss(recon, x) + 0.1 * kl_divergence(mu, logvar)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("KL term is a Python float:", isinstance(kl_divergence(mu, logvar), float))
