# source: negative twin of 1082_v5_math_exp_learned_log_sigma.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: none: the weight uses torch.exp
# checked: ran (no error; gradients reach the model)

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class UncertaintyLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_var = nn.Parameter(torch.zeros(()))

    def forward(self, loss_a, loss_b):
        w = torch.exp(-self.log_var)
        return w * loss_a + loss_b + self.log_var


net = nn.Linear(4, 2)
crit = UncertaintyLoss()
optimizer = torch.optim.Adam(list(net.parameters()) + list(crit.parameters()), lr=1e-2)
x, y = torch.randn(8, 4), torch.randn(8, 2)
out = net(x)
loss = crit(F.mse_loss(out[:, 0], y[:, 0]), F.l1_loss(out[:, 1], y[:, 1]))
optimizer.zero_grad()
loss.backward()
