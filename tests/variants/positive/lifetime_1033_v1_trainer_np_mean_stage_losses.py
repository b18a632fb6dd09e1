# source: variant of 1033_mprnet_np_sum_stage_losses.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: a Trainer's compute_loss averages the per-stage losses with np.mean, which converts the loss tensors to NumPy (an error on tensors that require grad, a cut graph where it works)
# expect: line 34 — np.mean over a list of loss tensors leaves autograd; use torch.stack(...).mean()
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
import torch.nn as nn


class MultiStageNet(nn.Module):
    def __init__(self, n_stages=3):
        super().__init__()
        self.stages = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(n_stages)])

    def forward(self, x):
        outs = []
        for stage in self.stages:
            x = stage(x)
            outs.append(x)
        return outs


class Trainer:
    def __init__(self, model):
        self.model = model
        self.criterion = nn.L1Loss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)

    def compute_loss(self, outputs, target):
        return np.mean([self.criterion(o, target) for o in outputs])

    def train_step(self, batch):
        inp, target = batch
        self.optimizer.zero_grad()
        loss = self.compute_loss(self.model(inp), target)
        loss.backward()
        self.optimizer.step()
        return loss


if __name__ == "__main__":
    t = Trainer(MultiStageNet())
    t.train_step((torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)))
