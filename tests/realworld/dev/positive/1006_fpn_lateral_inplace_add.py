# source: https://github.com/lyongo/NWPU-MOC/issues/4
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the FPN top-down path adds the upsampled map into laterals[i - 1] with +=, but the lateral is a ReLU output saved for backward
# expect: line 26 — laterals[i - 1] += ... modifies a tensor that ReluBackward0 saved; backward fails with "modified by an inplace operation"
# checked: ran, reproduces

import torch
import torch.nn as nn
import torch.nn.functional as F


class FPN_Head(nn.Module):
    def __init__(self, in_channels=(8, 16, 32), out_channels=8):
        super().__init__()
        self.lateral_convs = nn.ModuleList(
            nn.Sequential(nn.Conv2d(c, out_channels, 1), nn.ReLU()) for c in in_channels
        )

    def forward(self, inputs):
        laterals = [lateral_conv(inputs[i]) for i, lateral_conv in enumerate(self.lateral_convs)]
        used_backbone_levels = len(laterals)
        for i in range(used_backbone_levels - 1, 0, -1):
            prev_shape = laterals[i - 1].shape[2:]
            laterals[i - 1] += F.interpolate(laterals[i], size=prev_shape, mode='nearest')
        return laterals


head = FPN_Head()
feats = [torch.randn(1, 8, 32, 32), torch.randn(1, 16, 16, 16), torch.randn(1, 32, 8, 8)]
outs = head(feats)
sum(o.sum() for o in outs).backward()
