# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: the Dice term is computed in NumPy (pred.detach().cpu().numpy()) inside a helper and added to the BCE loss; the Dice part is a constant and never trains the network
# expect: line 16 — .numpy() of the prediction leaves autograd, so the Dice term added to the loss is a constant
# checked: ran, reproduces (the Dice term is a numpy float32 constant)

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def dice_loss(pred, target, eps=1.0):
    p = torch.sigmoid(pred).detach().cpu().numpy()
    t = target.cpu().numpy()
    inter = (p * t).sum()
    return 1 - (2 * inter + eps) / (p.sum() + t.sum() + eps)


model = nn.Conv2d(3, 1, 3, padding=1)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
img = torch.rand(2, 3, 16, 16)
mask = (torch.rand(2, 1, 16, 16) > 0.5).float()
for _ in range(2):
    logits = model(img)
    loss = F.binary_cross_entropy_with_logits(logits, mask) + dice_loss(logits, mask)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("dice term type:", type(dice_loss(logits, mask)).__name__)
