# source: variant of 1006_fpn_lateral_inplace_add.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: FPN laterals built as a list literal of F.relu outputs; the top-down loop adds into laterals[i - 1] with +=
# expect: line 23 — laterals[i - 1] += F.interpolate(...) on a saved ReLU output in a list literal
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [1, 8, 8, 8]], which is output 0 of Relu, is at version 1; expected ver)
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
        laterals = [F.relu(self.l3(c3)), F.relu(self.l4(c4)), F.relu(self.l5(c5))]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] += F.interpolate(laterals[i], scale_factor=2.0, mode="nearest")
        return laterals


outs = FPN()(torch.randn(1, 8, 16, 16), torch.randn(1, 16, 8, 8), torch.randn(1, 32, 4, 4))
sum(o.sum() for o in outs).backward()
