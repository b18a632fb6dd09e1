# source: https://github.com/pytorch/pytorch/issues/19164
# family: E
# pitfall: 3-D super-resolution model uses nn.MSELoss(reduction="sum") over whole 128^3 volumes in float32
# expect: line 13 — summing ~8M float32 squared errors per batch loses precision and makes the loss/gradient scale depend on volume size (LR must be retuned); use mean or float64 accumulation

import torch
import torch.nn as nn


class SRTrainer:
    def __init__(self):
        self.net = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 1, 3, padding=1))
        self.criterion = nn.MSELoss(reduction="sum")
        self.opt = torch.optim.Adam(self.net.parameters(), lr=1e-4)

    def step(self, low, high):
        loss = self.criterion(self.net(low), high)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


trainer = SRTrainer()
vol_lo, vol_hi = torch.randn(4, 1, 128, 128, 128), torch.randn(4, 1, 128, 128, 128)
print(trainer.step(vol_lo, vol_hi))
