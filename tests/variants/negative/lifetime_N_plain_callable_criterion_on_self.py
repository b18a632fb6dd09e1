# source: negative found while reducing 1053_v1 (plain callable loss class on self)
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: none: the criterion is a plain (non-nn.Module) class with __call__ returning a scalar .mean(); backward on it is fine
# checked: ran (backward works, loss is 0-d)

import torch
import torch.nn as nn


class FeatureLoss:
    def __init__(self, weight=1.0):
        self.weight = weight

    def __call__(self, feats):
        return self.weight * feats.pow(2).mean()


class Trainer:
    def __init__(self):
        self.model = nn.Linear(4, 4)
        self.criterion = FeatureLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def step(self, x):
        loss = self.criterion(self.model(x))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


Trainer().step(torch.randn(2, 4))
