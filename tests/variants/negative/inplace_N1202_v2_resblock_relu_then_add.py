# source: variant of 1202_multiresunet_respath_relu_output_iadd.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — residual added out of place after F.relu
# checked: ran, no error (exit 0)
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
        out = out + identity
        return out


blk = ResBlock(4)
blk(torch.randn(1, 4, 6, 6)).mean().backward()
