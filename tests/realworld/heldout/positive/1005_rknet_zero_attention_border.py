# source: https://github.com/AggMan96/RK-Net/issues/9
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the border of an attention map that is the output of a ReLU (saved for its backward) is zeroed with slice assignment
# expect: line 23 — att[...] = 0 modifies the ReLU output that ReluBackward0 saved; backward fails with "modified by an inplace operation"
# checked: ran, reproduces

import torch
import torch.nn as nn


class USAM(nn.Module):
    def __init__(self, polish=True):
        super().__init__()
        self.conv = nn.Conv2d(8, 1, 3, padding=1)
        self.relu = nn.ReLU()
        self.polish = polish

    def forward(self, x):
        att = self.relu(self.conv(x))
        if self.polish:
            att[:, :, :, 0] = 0
            att[:, :, :, -1] = 0
            att[:, :, 0, :] = 0
            att[:, :, -1, :] = 0
        return x * att


m = USAM()
y = m(torch.randn(2, 8, 12, 12))
y.sum().backward()
