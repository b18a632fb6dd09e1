# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: sinc by hand: torch.where(x == 0, torch.ones_like(x), torch.sin(x) / x); the untaken division is 0/0 at x == 0 and the gradient is NaN
# expect: line 22 — torch.where(t == 0, ones, torch.sin(t) / t) on a grid containing 0
# checked: ran (torch 2.13 CPU), reproduces (cutoff.grad = nan (the tap at t == 0))

import math
import torch
from torch import nn


class SincFilter(nn.Module):
    def __init__(self, taps=9):
        super().__init__()
        self.cutoff = nn.Parameter(torch.tensor(0.25))
        self.register_buffer("n", torch.arange(taps, dtype=torch.float32) - taps // 2)

    def forward(self, x):
        t = 2 * math.pi * self.cutoff * self.n
        h = torch.where(t == 0, torch.ones_like(t), torch.sin(t) / t)
        return torch.nn.functional.conv1d(x, h.view(1, 1, -1))


f = SincFilter()
f(torch.randn(1, 1, 32)).pow(2).mean().backward()
print(f.cutoff.grad)
