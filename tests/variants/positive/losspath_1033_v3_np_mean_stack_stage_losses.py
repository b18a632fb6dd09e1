# source: variant of 1033_mprnet_np_sum_stage_losses.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: the per-stage losses of a multi-stage restoration net are computed in a for loop over (stage output, weight) pairs and averaged with np.mean; np.mean converts the loss tensors to NumPy
# expect: line 26 — np.mean over the stage losses leaves autograd; use torch.stack(stage_losses).mean()
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
import torch.nn as nn


def charbonnier(x, y, eps=1e-3):
    diff = x - y
    return torch.mean(torch.sqrt(diff * diff + eps * eps))


def train(model, loader, optimizer, stage_weights):
    for input_, target in loader:
        optimizer.zero_grad()
        restored = model(input_)
        stage_losses = []
        for out, w in zip(restored, stage_weights):
            stage_losses.append(w * charbonnier(out, target))
        loss = np.mean(stage_losses)
        loss.backward()
        optimizer.step()


class ThreeStage(nn.Module):
    def __init__(self):
        super().__init__()
        self.s = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(3)])

    def forward(self, x):
        return [s(x) for s in self.s]


net = ThreeStage()
train(net, [(torch.rand(2, 3, 8, 8), torch.rand(2, 3, 8, 8))], torch.optim.Adam(net.parameters()), [1.0, 1.0, 1.0])
