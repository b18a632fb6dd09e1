# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: double where: the input is made safe before sqrt
# mimics: 1020_v1_module_method_sqrt.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
from torch import nn


class SqrtAct(nn.Module):
    def forward(self, h):
        pos = h > 0
        safe = torch.where(pos, h, torch.ones_like(h))
        return torch.where(pos, safe.sqrt(), h)


net = nn.Sequential(nn.Linear(4, 8), SqrtAct(), nn.Linear(8, 1))
x = torch.randn(16, 4)
net(x).pow(2).mean().backward()
print(torch.isnan(net[0].weight.grad).any().item())
