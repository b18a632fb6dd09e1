# source: variant of 1006_fpn_lateral_inplace_add.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: FPN top-down path with the method spelling laterals[i - 1].add_(F.interpolate(...)); the laterals are ReLU outputs
# expect: line 23 — laterals[i - 1].add_(...) on a saved ReLU output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [1, 8, 8, 8]], which is output 0 of Relu, is at version 1; expected ver)
import torch
import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    def __init__(self, in_channels=(8, 16, 32), out_channels=8):
        super().__init__()
        self.lateral_convs = nn.ModuleList(
            nn.Sequential(nn.Conv2d(c, out_channels, 1), nn.ReLU()) for c in in_channels
        )

    def forward(self, inputs):
        laterals = [conv(x) for conv, x in zip(self.lateral_convs, inputs)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1].add_(F.interpolate(laterals[i], size=laterals[i - 1].shape[2:], mode="nearest"))
        return laterals


fpn = FPN()
feats = [torch.randn(1, 8, 16, 16), torch.randn(1, 16, 8, 8), torch.randn(1, 32, 4, 4)]
sum(o.sum() for o in fpn(feats)).backward()
