# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: a hand-written L2 penalty helper ends in .item(); the regulariser added to the loss is a Python float, so weight decay never acts on the weights
# expect: line 15 — .item() turns the penalty into a number; the loss gets no gradient from it
# checked: ran, reproduces (the penalty is a Python float; backward sees only the cross-entropy)

import torch
import torch.nn as nn
import torch.nn.functional as F


def l2_penalty(model):
    return sum(p.pow(2).sum() for p in model.parameters()).item()


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
