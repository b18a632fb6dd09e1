# source: negative twin of 1033_v1_trainer_np_mean_stage_losses.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: none: the stage losses are averaged with torch.stack(...).mean()
# checked: ran (no error; gradients reach the model)

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
        return torch.stack([self.criterion(o, target) for o in outputs]).mean()

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
