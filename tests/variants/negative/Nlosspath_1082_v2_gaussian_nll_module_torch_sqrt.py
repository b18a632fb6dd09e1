# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# negative: fixed twin: torch.sqrt of the predicted variance
# expect: no finding
# checked: ran, no error (exit 0)

import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianNLLLoss(nn.Module):
    def forward(self, mu, var, target):
        std = torch.sqrt(var)
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
