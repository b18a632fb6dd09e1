# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: the Gaussian log-density is a @staticmethod of the VAE written with np.exp on the log-variance tensor; computing it on the encoder output converts a tensor that requires grad to NumPy
# expect: line 22 — np.exp on the log-variance tensor leaves autograd; use torch.exp
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
import torch.nn as nn


class VAE(nn.Module):
    def __init__(self, x_dim=16, z_dim=4):
        super().__init__()
        self.enc = nn.Linear(x_dim, 2 * z_dim)
        self.dec = nn.Linear(z_dim, x_dim)

    @staticmethod
    def log_normal(x, mu, logvar):
        return -0.5 * (np.log(2 * np.pi) + logvar + (x - mu) ** 2 / np.exp(logvar))

    def loss(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=1)
        z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)
        log_q = self.log_normal(z, mu, logvar).sum(1)
        log_p = self.log_normal(z, torch.zeros_like(z), torch.zeros_like(z)).sum(1)
        recon = ((self.dec(z) - x) ** 2).sum(1)
        return (recon + log_q - log_p).mean()


model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss = model.loss(torch.randn(8, 16))
opt.zero_grad()
loss.backward()
opt.step()
