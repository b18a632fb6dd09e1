# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: the uncertainty-weighted multi-task loss computes the task weight with math.exp on the learned log-variance parameter; math.exp converts it to a float, so log_sigma never receives a gradient through the weight
# expect: line 22 — math.exp(-self.log_var) turns the parameter into a Python float; use torch.exp
# checked: ran, reproduces (log_var.grad is 1.0: only the additive + log_var term, nothing through the weight)

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class UncertaintyLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_var = nn.Parameter(torch.zeros(()))

    def forward(self, loss_a, loss_b):
        w = math.exp(-self.log_var)
        return w * loss_a + loss_b + self.log_var


net = nn.Linear(4, 2)
crit = UncertaintyLoss()
optimizer = torch.optim.Adam(list(net.parameters()) + list(crit.parameters()), lr=1e-2)
x, y = torch.randn(8, 4), torch.randn(8, 2)
out = net(x)
loss = crit(F.mse_loss(out[:, 0], y[:, 0]), F.l1_loss(out[:, 1], y[:, 1]))
optimizer.zero_grad()
loss.backward()
