# source: https://github.com/swz30/MPRNet/issues/91
# framework: torch
# family: A
# kind: conversion-on-loss-path
# negative: the maintainer's fix: Python's built-in sum adds the stage losses as tensors, keeping the graph
# mimics: positive/1033_mprnet_np_sum_stage_losses.py
# expect: no finding
# checked: ran, no error

import numpy as np
import torch
import torch.nn as nn


class CharbonnierLoss(nn.Module):
    def __init__(self, eps=1e-3):
        super(CharbonnierLoss, self).__init__()
        self.eps = eps

    def forward(self, x, y):
        diff = x - y
        return torch.mean(torch.sqrt((diff * diff) + (self.eps * self.eps)))


class EdgeLoss(nn.Module):
    def forward(self, x, y):
        return torch.mean(torch.abs(x[..., 1:] - x[..., :-1] - (y[..., 1:] - y[..., :-1])))


model_restoration = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(3)])
optimizer = torch.optim.Adam(model_restoration.parameters(), lr=2e-4)
criterion_char = CharbonnierLoss()
criterion_edge = EdgeLoss()

for epoch in range(2):
    input_ = torch.rand(2, 3, 16, 16)
    target = torch.rand(2, 3, 16, 16)
    optimizer.zero_grad()
    restored = [stage(input_) for stage in model_restoration]

    # Compute loss at each stage
    loss_char = sum([criterion_char(restored[j], target) for j in range(len(restored))])
    loss_edge = sum([criterion_edge(restored[j], target) for j in range(len(restored))])
    loss = (loss_char) + (0.05 * loss_edge)

    loss.backward()
    optimizer.step()
