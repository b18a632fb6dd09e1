# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: torch.where(h > 0, h.sqrt(), h) on a layer's output (method form); the untaken sqrt of negative entries leaks NaN into the weights
# expect: line 15 — torch.where(h > 0, h.sqrt(), h) with negative h
# checked: ran (torch 2.13 CPU), reproduces (NaN in net[0].weight.grad (negative pre-activations))

import torch
from torch import nn


class SqrtAct(nn.Module):
    def forward(self, h):
        return torch.where(h > 0, h.sqrt(), h)


net = nn.Sequential(nn.Linear(4, 8), SqrtAct(), nn.Linear(8, 1))
x = torch.randn(16, 4)
net(x).pow(2).mean().backward()
print(torch.isnan(net[0].weight.grad).any().item())
