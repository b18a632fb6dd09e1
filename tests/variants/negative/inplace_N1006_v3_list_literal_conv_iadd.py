# source: variant of 1006_fpn_lateral_inplace_add.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — list literal of plain conv laterals (no activation) — += is safe
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l3 = nn.Conv2d(8, 8, 1)
        self.l4 = nn.Conv2d(16, 8, 1)
        self.l5 = nn.Conv2d(32, 8, 1)

    def forward(self, c3, c4, c5):
        laterals = [self.l3(c3), self.l4(c4), self.l5(c5)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] += F.interpolate(laterals[i], scale_factor=2.0, mode="nearest")
        return laterals


outs = FPN()(torch.randn(1, 8, 16, 16), torch.randn(1, 16, 8, 8), torch.randn(1, 32, 4, 4))
sum(o.sum() for o in outs).backward()
