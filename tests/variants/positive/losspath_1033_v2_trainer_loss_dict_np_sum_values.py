# source: variant of 1033_mprnet_np_sum_stage_losses.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: a Trainer keeps its loss terms in a dict and totals them with np.sum(list(losses.values())); np.sum converts the loss tensors to NumPy
# expect: line 31 — np.sum over the dict of loss tensors leaves autograd; use sum(losses.values())
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.l1 = nn.L1Loss()
        self.mse = nn.MSELoss()

    def compute_losses(self, out, target):
        losses = {}
        losses["l1"] = self.l1(out, target)
        losses["mse"] = self.mse(out, target)
        losses["tv"] = (out[..., 1:] - out[..., :-1]).abs().mean()
        return losses

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        losses = self.compute_losses(self.model(x), y)
        total = np.sum(list(losses.values()))
        total.backward()
        self.optimizer.step()
        return {k: v.item() for k, v in losses.items()}


trainer = Trainer(nn.Conv2d(3, 3, 3, padding=1))
trainer.train_step(torch.rand(2, 3, 8, 8), torch.rand(2, 3, 8, 8))
