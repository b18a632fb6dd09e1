# source: https://github.com/GuHY777/SS-VAE-pytorch/issues/1
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: the Gaussian log-density used in the VAE objective is written with np.log / np.pi on torch tensors, so computing log_q_z on the reparameterised sample converts a tensor that requires grad to NumPy
# expect: line 15 — np.log on the variance tensor converts it to NumPy (an error on tensors that require grad, a cut graph otherwise); use torch.log
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
import torch.nn as nn


def log_Gaussian_pro(x, mu, var):
    return torch.sum(-0.5 * np.log(2 * np.pi * var) - (x - mu) ** 2 / (2 * var), dim=1)


class Encoder(nn.Module):
    def __init__(self, x_dim=16, z_dim=4):
        super().__init__()
        self.mu = nn.Linear(x_dim, z_dim)
        self.logvar = nn.Linear(x_dim, z_dim)

    def forward(self, x):
        return self.mu(x), torch.exp(self.logvar(x))


encoder = Encoder()
x = torch.randn(8, 16)
z_mu, z_var = encoder(x)
z = z_mu + torch.sqrt(z_var) * torch.randn_like(z_mu)
log_q_z = log_Gaussian_pro(z, z_mu, z_var)
log_p_z = log_Gaussian_pro(z, torch.zeros_like(z), torch.ones_like(z))
kl = (log_q_z - log_p_z).mean()
kl.backward()
