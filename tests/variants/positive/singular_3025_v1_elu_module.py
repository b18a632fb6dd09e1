# source: variant of 3025_torch_where_exp_overflow_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: ELU-like activation torch.where(x > 0, x, alpha * (x.exp() - 1)); for large positive x the untaken exp branch overflows to inf and gives NaN
# expect: line 19 — torch.where(x > 0, x, self.alpha * (x.exp() - 1)) with x = 100
# checked: ran (torch 2.13 CPU), reproduces (a.grad = [nan, 0.37] at a = 100)

import torch
from torch import nn


class MyELU(nn.Module):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return torch.where(x > 0, x, self.alpha * (x.exp() - 1))


a = torch.tensor([100.0, -1.0], requires_grad=True)
MyELU()(a).sum().backward()
print(a.grad)
