# source: https://pytorch.org/docs/stable/checkpoint.html
# family: F
# negative: reentrant checkpointing applied only to the later stages, whose input is the output of a trainable (non-checkpointed) stem and therefore requires grad
# mimics: checkpoint(..., use_reentrant=True) inside forward()
# expect: no finding

import torch
import torch.nn as nn
from torch.utils import checkpoint as cp


class ResNetish(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 7, stride=2, padding=3), nn.BatchNorm2d(32), nn.ReLU())
        self.stages = nn.ModuleList([nn.Sequential(nn.Conv2d(32, 32, 3, padding=1), nn.ReLU()) for _ in range(3)])
        self.fc = nn.Linear(32, 100)

    def forward(self, images):
        x = self.stem(images)
        for stage in self.stages:
            x = cp.checkpoint(stage, x, use_reentrant=True)
        return self.fc(x.mean(dim=(2, 3)))


net = ResNetish()
nn.functional.cross_entropy(net(torch.randn(8, 3, 64, 64)), torch.randint(0, 100, (8,))).backward()
assert net.stem[0].weight.grad is not None and net.stages[0][0].weight.grad is not None
