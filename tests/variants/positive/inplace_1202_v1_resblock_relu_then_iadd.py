# source: variant of 1202_multiresunet_respath_relu_output_iadd.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: residual block where the branch output is already ReLU'd (F.relu, not inplace) and the shortcut is added with out += identity
# expect: line 23 — out += identity on the F.relu output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [1, 4, 6, 6]], which is output 0 of Relu, is at version 1; expected ver)
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)

    def forward(self, x):
        identity = x
        out = F.relu(self.conv1(x))
        out = F.relu(self.conv2(out))
        out += identity
        return out


blk = ResBlock(4)
blk(torch.randn(1, 4, 6, 6)).mean().backward()
