# source: https://github.com/pytorch/vision/blob/main/torchvision/models/resnet.py
# family: D
# negative: in-place ops only where autograd does not need the overwritten value: ReLU(inplace=True) after BatchNorm, += on a Linear output, masked_fill_ on a fresh clone
# mimics: in-place ops (+=, relu_, item assignment) in forward()
# expect: no finding

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c)
        self.act = nn.ReLU(inplace=True)
        self.fc = nn.Linear(c, c)

    def forward(self, x, pad_mask):
        out = self.act(self.bn(self.conv(x)))
        z = self.fc(out.mean(dim=(2, 3)))
        z += 1.0
        z = z.clone()
        z.masked_fill_(pad_mask, 0.0)
        return z


blk = Block(8)
y = blk(torch.randn(4, 8, 16, 16, requires_grad=True), torch.zeros(4, 8, dtype=torch.bool))
y.sum().backward()
