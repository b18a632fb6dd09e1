# source: https://github.com/pytorch/vision/pull/579
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: in torchvision's ResNet block, out += identity is applied to the output of BatchNorm, which autograd does not save for its backward; the maintainers kept the in-place add because it is correct and saves memory
# mimics: an in-place residual addition in forward
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


def conv3x3(in_planes, out_planes, stride=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=1, bias=False)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super(BasicBlock, self).__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)

        if self.downsample is not None:
            identity = self.downsample(x)

        out += identity
        out = self.relu(out)

        return out


block = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), BasicBlock(8, 8))
block(torch.randn(2, 3, 8, 8)).sum().backward()
