# source: https://github.com/AggMan96/RK-Net/issues/9
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the accepted fix: att = att.clone() before the border is zeroed, so the ReLU output saved for backward is untouched
# mimics: positive/1005_rknet_zero_attention_border.py
# expect: no finding
# checked: ran, no error

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
            att = att.clone()
            att[:, :, :, 0] = 0
            att[:, :, :, -1] = 0
            att[:, :, 0, :] = 0
            att[:, :, -1, :] = 0
        return x * att


m = USAM()
y = m(torch.randn(2, 8, 12, 12))
y.sum().backward()
