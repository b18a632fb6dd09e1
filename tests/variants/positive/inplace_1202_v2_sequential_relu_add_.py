# source: variant of 1202_multiresunet_respath_relu_output_iadd.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the block's conv-BN-ReLU sub-module (nn.Sequential with nn.ReLU()) output gets the shortcut added with .add_()
# expect: line 27 — x.add_(shortcut) on the output of a Sequential ending in nn.ReLU()
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2, 4, 6, 6]], which is output 0 of Relu, is at version 1; expected ver)
import torch
import torch.nn as nn


def conv_bn_relu(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class Respath(nn.Module):
    def __init__(self, c, length=2):
        super().__init__()
        self.short = nn.Conv2d(c, c, 1)
        self.body = conv_bn_relu(c, c)
        self.length = length

    def forward(self, x):
        for _ in range(self.length):
            shortcut = self.short(x)
            x = self.body(x)
            x.add_(shortcut)
        return x


Respath(4)(torch.randn(2, 4, 6, 6)).mean().backward()
