# source: variant of 1033_mprnet_np_sum_stage_losses.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# negative: fixed twin: the weighted average is computed with torch.stack and a weight tensor
# expect: no finding
# checked: ran, no error (exit 0)

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
    w = torch.tensor(weights)
    return (torch.stack(losses) * w).sum() / w.sum()


model = DeepSupervisedNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
for step in range(2):
    x, y = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
    optimizer.zero_grad()
    loss = deep_supervision_loss(model(x), y)
    loss.backward()
    optimizer.step()
