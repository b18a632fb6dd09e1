# source: https://pytorch.org/docs/stable/generated/torch.where.html
# family: E
# pitfall: sinc-based filter computes torch.where(|x| > 1e-6, sin(x)/x, 1) so the forward value is fine at x = 0
# expect: line 18 — the division sin(x)/x is still evaluated (and differentiated) at x = 0: its 0/0 gradient is NaN and leaks through torch.where

import torch
import torch.nn as nn


class SincConv(nn.Module):
    def __init__(self, taps=31):
        super().__init__()
        self.cutoff = nn.Parameter(torch.tensor(0.25))
        self.register_buffer("n", torch.arange(taps) - taps // 2)

    def forward(self, sig):
        x = torch.pi * 2 * self.cutoff * self.n
        kernel = torch.where(x.abs() > 1e-6, torch.sin(x) / x, torch.ones_like(x))
        return nn.functional.conv1d(sig, (2 * self.cutoff * kernel).view(1, 1, -1), padding="same")


m = SincConv()
m(torch.randn(2, 1, 400)).pow(2).mean().backward()
print(m.cutoff.grad)  # nan (the centre tap has x == 0)
