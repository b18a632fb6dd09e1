# source: https://github.com/pytorch/pytorch/issues/15428
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the answer's fix: the first ReLU of the residual branch is not in place, so x stays intact for the shortcut's backward
# mimics: positive/1121_block_residual_inplace_relu_on_input.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, in_chan, out_chan, stride=1):
        super(Block, self).__init__()
        self.stride = stride
        self.in_chan = in_chan
        self.out_chan = out_chan
        self.residual = nn.Sequential(
            nn.ReLU(inplace=False),
            nn.Conv2d(in_chan, out_chan, 3, stride, 1, bias=False),
            nn.BatchNorm2d(out_chan),
        )
        self.shortcut = nn.Conv2d(in_chan, out_chan, 1, stride, bias=False)

    def forward(self, x):
        if not self.stride == 1 or not self.in_chan == self.out_chan:
            sc = self.shortcut(x)
        else:
            sc = x
        resd = self.residual(x)
        out = resd + sc
        return out


net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), Block(8, 16, 2))
out = net(torch.randn(2, 3, 16, 16))
out.sum().backward()
