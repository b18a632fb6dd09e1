# source: https://github.com/pytorch/pytorch/issues/4320
# family: E
# pitfall: hand-written LayerNorm divides by torch.sqrt of the per-row variance without an epsilon; zero-padded rows have variance 0
# expect: line 18 — sqrt(0) has an infinite derivative (and x/0): padded rows produce inf/NaN gradients; use torch.sqrt(var + eps) or torch.rsqrt(var + eps)

import torch
import torch.nn as nn


class MyLayerNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        std = torch.sqrt(((x - mu) ** 2).mean(-1, keepdim=True))
        return self.gamma * (x - mu) / std + self.beta


proj = nn.Linear(32, 32, bias=False)
ln = MyLayerNorm(32)
tokens = torch.randn(4, 10, 32)
tokens[:, 7:] = 0.0  # padding positions
ln(proj(tokens)).sum().backward()
print(proj.weight.grad.isnan().any())
