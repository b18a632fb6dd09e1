# source: variant of 1033_mprnet_np_sum_stage_losses.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: per-scale losses are appended to a list in a loop and combined with np.sum(losses) before backward; np.sum converts the tensors to NumPy
# expect: line 20 — np.sum(losses) over loss tensors leaves autograd; use sum(losses) or torch.stack(losses).sum()
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def multiscale_loss(preds, target):
    losses = []
    for p in preds:
        t = F.interpolate(target, size=p.shape[-2:], mode="bilinear", align_corners=False)
        losses.append(F.mse_loss(p, t))
    return np.sum(losses)


class Pyramid(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(3)])

    def forward(self, x):
        outs = []
        for conv in self.convs:
            x = conv(x)
            outs.append(x)
            x = F.avg_pool2d(x, 2)
        return outs


model = Pyramid()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(2):
    img, gt = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
    optimizer.zero_grad()
    loss = multiscale_loss(model(img), gt)
    loss.backward()
    optimizer.step()
