# source: variant of 1033_mprnet_np_sum_stage_losses.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: a deep-supervision helper weights the side-output losses with np.average(..., weights=...), which converts the loss tensors to NumPy (an error on tensors that require grad)
# expect: line 30 — np.average over the per-output loss tensors leaves autograd; use (torch.stack(losses) * w).sum() / w.sum()
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class DeepSupervisedNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stages = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(3)])

    def forward(self, x):
        outs = []
        for stage in self.stages:
            x = stage(x)
            outs.append(x)
        return outs


def deep_supervision_loss(outputs, target, weights=(0.25, 0.25, 0.5)):
    losses = [F.l1_loss(o, target) for o in outputs]
    return np.average(losses, weights=weights)


model = DeepSupervisedNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
for step in range(2):
    x, y = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
    optimizer.zero_grad()
    loss = deep_supervision_loss(model(x), y)
    loss.backward()
    optimizer.step()
