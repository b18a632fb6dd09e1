# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# negative: fixed twin: the smoothing filter is written with torch ops (F.avg_pool2d), the NumPy path is kept only for a logged statistic
# expect: no finding
# checked: ran, no error (exit 0)

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def box_blur(a):
    out = a.copy()
    out[..., 1:-1, 1:-1] = (a[..., :-2, 1:-1] + a[..., 2:, 1:-1] + a[..., 1:-1, :-2] + a[..., 1:-1, 2:]) / 4.0
    return out


def smoothness_loss(pred):
    blurred = F.avg_pool2d(pred, 3, stride=1, padding=1)
    return F.l1_loss(blurred, torch.zeros_like(blurred))


net = nn.Conv2d(1, 1, 3, padding=1)
optimizer = torch.optim.Adam(net.parameters())
x = torch.rand(2, 1, 16, 16)
pred = net(x)
smooth_term = smoothness_loss(pred)
print(smooth_term.requires_grad, box_blur(pred.detach().cpu().numpy()).mean())
optimizer.zero_grad()
smooth_term.backward()
optimizer.step()
