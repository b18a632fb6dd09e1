# source: https://pytorch.org/docs/stable/checkpoint.html
# family: F
# pitfall: memory-saving refactor wraps the first conv stage in torch.utils.checkpoint with use_reentrant=True; its input is the raw image batch
# expect: line 19 — reentrant checkpoint whose only tensor input (images) does not require grad: the stem's parameters silently receive no gradient

import torch
import torch.nn as nn
from torch.utils import checkpoint as cp


class ResNetish(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 7, stride=2, padding=3), nn.BatchNorm2d(32), nn.ReLU())
        self.stage = nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU())
        self.fc = nn.Linear(64, 100)

    def forward(self, images):
        x = cp.checkpoint(self.stem, images, use_reentrant=True)
        x = self.stage(x)
        return self.fc(x.mean(dim=(2, 3)))


net = ResNetish()
out = net(torch.randn(8, 3, 64, 64))
nn.functional.cross_entropy(out, torch.randint(0, 100, (8,))).backward()
print(net.stem[0].weight.grad)  # None
