# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: a Gaussian negative log-likelihood loss class takes the standard deviation with np.sqrt of the predicted variance; np.sqrt converts the variance tensor, which requires grad, to NumPy
# expect: line 19 — np.sqrt(var) on the predicted variance leaves autograd; use torch.sqrt
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianNLLLoss(nn.Module):
    def forward(self, mu, var, target):
        std = np.sqrt(var)
        return (torch.log(std) + 0.5 * ((target - mu) / std) ** 2 + 0.5 * math.log(2 * math.pi)).mean()


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 16)
        self.mu = nn.Linear(16, 1)
        self.var = nn.Linear(16, 1)

    def forward(self, x):
        h = torch.relu(self.body(x))
        return self.mu(h), F.softplus(self.var(h)) + 1e-6


model = Regressor()
criterion = GaussianNLLLoss()
optimizer = torch.optim.Adam(model.parameters())
x, y = torch.randn(32, 8), torch.randn(32, 1)
mu, var = model(x)
loss = criterion(mu, var, y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
