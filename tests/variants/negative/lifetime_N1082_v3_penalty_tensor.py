# source: negative twin of 1082_v3_item_l2_penalty.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: none: the penalty stays a tensor
# checked: ran (no error; gradients reach the model)

import torch
import torch.nn as nn
import torch.nn.functional as F


def l2_penalty(model):
    return sum(p.pow(2).sum() for p in model.parameters())


class Trainer:
    def __init__(self, model, wd=1e-2):
        self.model = model
        self.wd = wd
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def compute_loss(self, x, y):
        return F.cross_entropy(self.model(x), y) + self.wd * l2_penalty(self.model)

    def step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.compute_loss(x, y)
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    t = Trainer(nn.Linear(8, 3))
    t.step(torch.randn(4, 8), torch.randint(0, 3, (4,)))
    print("penalty is a Python float:", isinstance(l2_penalty(t.model), float))
