# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: an edge-aware loss smooths the prediction with a NumPy filter via torch.from_numpy(pred.detach().cpu().numpy()); the round trip through NumPy cuts the prediction from the network, so the smoothness term trains nothing
# expect: line 22 — .detach().cpu().numpy() of the prediction leaves autograd; torch.from_numpy gives back a constant
# checked: ran, reproduces (smooth_term.requires_grad is False; with it alone, backward raises "element 0 of tensors does not require grad")

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def box_blur(a):
    out = a.copy()
    out[..., 1:-1, 1:-1] = (a[..., :-2, 1:-1] + a[..., 2:, 1:-1] + a[..., 1:-1, :-2] + a[..., 1:-1, 2:]) / 4.0
    return out


def smoothness_loss(pred):
    blurred = torch.from_numpy(box_blur(pred.detach().cpu().numpy()))
    return F.l1_loss(blurred, torch.zeros_like(blurred))


net = nn.Conv2d(1, 1, 3, padding=1)
optimizer = torch.optim.Adam(net.parameters())
x = torch.rand(2, 1, 16, 16)
pred = net(x)
smooth_term = smoothness_loss(pred)
print(smooth_term.requires_grad)
optimizer.zero_grad()
smooth_term.backward()
optimizer.step()
