# source: https://jax.readthedocs.io/en/latest/faq.html#gradients-contain-nan-where-using-where
# family: E
# negative: sinc with the double-where trick: the denominator is replaced by a safe value before the division, so the untaken branch has finite gradients
# mimics: torch.where(cond, sin(x) / x, 1)
# expect: no finding

import torch
import torch.nn as nn


class SincConv(nn.Module):
    def __init__(self, taps=31):
        super().__init__()
        self.cutoff = nn.Parameter(torch.tensor(0.25))
        self.register_buffer("n", torch.arange(taps) - taps // 2)

    def forward(self, sig):
        x = torch.pi * 2 * self.cutoff * self.n
        nonzero = x.abs() > 1e-6
        safe_x = torch.where(nonzero, x, torch.ones_like(x))
        kernel = torch.where(nonzero, torch.sin(safe_x) / safe_x, torch.ones_like(x))
        return nn.functional.conv1d(sig, (2 * self.cutoff * kernel).view(1, 1, -1), padding="same")


m = SincConv()
m(torch.randn(2, 1, 400)).pow(2).mean().backward()
assert torch.isfinite(m.cutoff.grad)
