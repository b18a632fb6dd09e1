# source: https://github.com/ultralytics/ultralytics/pull/25315
# framework: torch
# family: D
# kind: inplace-on-leaf
# negative: the EMA copy is updated in place under torch.no_grad() from the model's state_dict(), whose tensors (keep_vars=False) are already detached, so no autograd history is recorded and no leaf that requires grad is modified in place
# mimics: in-place arithmetic on model weights after the optimizer step
# expect: no finding
# checked: ran, no error

import math
from copy import deepcopy

import torch
import torch.nn as nn


class ModelEMA:
    def __init__(self, model, decay=0.9999, tau=2000, updates=0):
        self.ema = deepcopy(model).eval()
        self.updates = updates
        self.decay = lambda x: decay * (1 - math.exp(-x / tau))
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        with torch.no_grad():
            self.updates += 1
            d = self.decay(self.updates)

            msd = model.state_dict()  # model state_dict
            for k, v in self.ema.state_dict().items():
                if v.dtype.is_floating_point:  # true for FP16 and FP32
                    v *= d
                    v += (1 - d) * msd[k].detach()


model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8))
ema = ModelEMA(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss = model(torch.randn(2, 3, 8, 8)).mean()
loss.backward()
optimizer.step()
ema.update(model)
