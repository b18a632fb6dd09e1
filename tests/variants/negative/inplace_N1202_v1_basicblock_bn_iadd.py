# source: variant of 1202_multiresunet_respath_relu_output_iadd.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — torchvision-style BasicBlock: out = bn2(conv2(out)); out += identity; relu(inplace)
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        out += identity
        out = self.relu(out)
        return out


blk = BasicBlock(4)
blk(torch.randn(2, 4, 6, 6)).mean().backward()
