# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: a hand-written binary cross-entropy clips the predicted probabilities with np.clip (a Keras habit) before torch.log; np.clip converts the prediction tensor, which requires grad, to NumPy
# expect: line 15 — np.clip on the prediction leaves autograd; use torch.clamp
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
import torch.nn as nn


def binary_cross_entropy(pred, target, eps=1e-7):
    pred = np.clip(pred, eps, 1 - eps)
    return -(target * torch.log(pred) + (1 - target) * torch.log(1 - pred)).mean()


model = nn.Sequential(nn.Linear(10, 1), nn.Sigmoid())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(16, 10)
y = (torch.rand(16, 1) > 0.5).float()
optimizer.zero_grad()
loss = binary_cross_entropy(model(x), y)
loss.backward()
optimizer.step()
