# source: variant of 1033_mprnet_np_sum_stage_losses.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# negative: fixed twin: Python's sum over the dict values keeps the loss tensors' graphs
# expect: no finding
# checked: ran, no error (exit 0)

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
        total = sum(losses.values())
        total.backward()
        self.optimizer.step()
        return {k: v.item() for k, v in losses.items()}


trainer = Trainer(nn.Conv2d(3, 3, 3, padding=1))
trainer.train_step(torch.rand(2, 3, 8, 8), torch.rand(2, 3, 8, 8))
