# source: synthetic
# family: F
# pitfall: criterion built with reduction="none" (to inspect per-pixel errors) and the resulting map is backpropagated directly
# expect: line 20 — backward() on a non-scalar loss map without a gradient argument: "grad can be implicitly created only for scalar outputs"

import torch
from torch import nn


class DenoiseTrainer:
    def __init__(self):
        self.model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1))
        self.criterion = nn.MSELoss(reduction="none")
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def step(self, noisy, clean):
        err_map = self.criterion(self.model(noisy), clean)
        self.worst_pixel = err_map.max().item()
        self.opt.zero_grad()
        err_map.backward()
        self.opt.step()


DenoiseTrainer().step(torch.randn(4, 1, 32, 32), torch.randn(4, 1, 32, 32))
