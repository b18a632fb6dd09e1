# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: torch.sinc, whose gradient at 0 is defined
# mimics: 1020_v5_sinc_where_div.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

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
        h = torch.sinc(t / math.pi)
        return torch.nn.functional.conv1d(x, h.view(1, 1, -1))


f = SincFilter()
f(torch.randn(1, 1, 32)).pow(2).mean().backward()
print(f.cutoff.grad)
