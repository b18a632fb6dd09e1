# source: variant of 3025_torch_where_exp_overflow_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: exp of x.clamp(max=0), as torch's own ELU effectively does
# mimics: 3025_v1_elu_module.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
from torch import nn


class MyELU(nn.Module):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return torch.where(x > 0, x, self.alpha * (x.clamp(max=0).exp() - 1))


a = torch.tensor([100.0, -1.0], requires_grad=True)
MyELU()(a).sum().backward()
print(a.grad)
