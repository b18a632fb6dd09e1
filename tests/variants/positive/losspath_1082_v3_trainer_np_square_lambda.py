# source: variant of 1082_ssvae_log_gaussian_numpy.py
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: a Trainer's squared-error criterion is a lambda written with np.square and np.mean on the model output; NumPy converts the output tensor, which requires grad
# expect: line 18 — np.square on the prediction leaves autograd; use (pred - target).pow(2).mean()
# checked: ran, reproduces (RuntimeError: Can't call numpy() on Tensor that requires grad)

import numpy as np
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        self.criterion = lambda pred, target: np.mean(np.square(pred - target))

    def step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.criterion(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss


Trainer(nn.Linear(4, 1)).step(torch.randn(8, 4), torch.randn(8, 1))
