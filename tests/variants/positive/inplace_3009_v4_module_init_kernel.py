# source: variant of 3009_conv_weight_index_assign.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: the fixed kernel is written in a Module's __init__ via self.conv.weight[...] = ... outside torch.no_grad()
# expect: line 18 — self.blur.weight[:, :] = kernel store into a parameter inside __init__
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn


class Blur(nn.Module):
    def __init__(self, channels=3):
        super().__init__()
        k = torch.tensor([1., 2., 1.])
        kernel = (k[:, None] * k[None, :]) / 16
        self.blur = nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False)
        self.blur.weight[:, :] = kernel

    def forward(self, x):
        return self.blur(x)


print(Blur()(torch.rand(1, 3, 6, 6)).shape)
