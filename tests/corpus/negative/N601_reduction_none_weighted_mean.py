# source: https://pytorch.org/docs/stable/generated/torch.nn.MSELoss.html
# family: F
# negative: per-pixel losses with reduction="none" are weighted by a mask and reduced with .mean() before backward()
# mimics: reduction="none" criterion followed by backward()
# expect: no finding

import torch
from torch import nn


class DenoiseTrainer:
    def __init__(self):
        self.model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1))
        self.criterion = nn.MSELoss(reduction="none")
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def step(self, noisy, clean, valid):
        err_map = self.criterion(self.model(noisy), clean)
        loss = (err_map * valid).sum() / valid.sum().clamp(min=1)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return err_map.detach().amax(dim=(1, 2, 3))


DenoiseTrainer().step(torch.randn(4, 1, 32, 32), torch.randn(4, 1, 32, 32), torch.ones(4, 1, 32, 32))
