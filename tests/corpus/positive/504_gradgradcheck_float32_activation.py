# source: https://pytorch.org/docs/stable/generated/torch.autograd.gradcheck.gradgradcheck.html
# family: E
# pitfall: second-order check of a custom smooth activation with gradgradcheck on float32 inputs created with torch.randn
# expect: line 18 — gradgradcheck on float32: double-backward finite differences are hopeless at single precision; use float64 inputs

import torch
import torch.nn as nn
from torch.autograd import gradgradcheck


class Mish(nn.Module):
    def forward(self, x):
        return x * torch.tanh(nn.functional.softplus(x))


mish = Mish()
inputs = (torch.randn(3, 7, requires_grad=True),)
ok = gradgradcheck(mish, inputs)
print("double backward ok:", ok)
