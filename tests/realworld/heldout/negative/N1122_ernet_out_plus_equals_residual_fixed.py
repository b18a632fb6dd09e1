# source: https://github.com/iMED-Lab/ER-Net/pull/3
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the proposed fix: the residual is added out of place, out = out + residual
# mimics: positive/1122_ernet_out_plus_equals_residual.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class ResEncoder3d(nn.Module):
    def __init__(self, in_channels, out_channels):
        super(ResEncoder3d, self).__init__()
        self.conv1 = nn.Conv3d(in_channels, out_channels, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm3d(out_channels)
        self.conv2 = nn.Conv3d(out_channels, out_channels, kernel_size=3, padding=1)
        self.bn2 = nn.BatchNorm3d(out_channels)
        self.relu = nn.ReLU(inplace=False)
        self.conv1x1 = nn.Conv3d(in_channels, out_channels, kernel_size=1)

    def forward(self, x):
        residual = self.conv1x1(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = out + residual
        out = self.relu(out)
        return out


block = ResEncoder3d(1, 4)
y = block(torch.randn(1, 1, 8, 8, 8))
y.sum().backward()
