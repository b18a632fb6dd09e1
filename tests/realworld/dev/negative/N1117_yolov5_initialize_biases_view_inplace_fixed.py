# source: https://github.com/xhwNobody/yolov5_prune_sfp/issues/17
# framework: torch
# family: D
# kind: inplace-on-leaf
# negative: the fix posted in the thread: the two in-place prior additions run under torch.no_grad()
# mimics: positive/1117_yolov5_initialize_biases_view_inplace.py
# expect: no finding
# checked: ran, no error

import math

import torch
import torch.nn as nn


class Detect(nn.Module):
    def __init__(self, nc=80, anchors=((10, 13, 16, 30, 33, 23),), ch=(16,)):
        super().__init__()
        self.nc = nc
        self.no = nc + 5
        self.na = len(anchors[0]) // 2
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)
        self.stride = torch.tensor([8.])


class Model(nn.Module):
    def __init__(self, nc=80):
        super().__init__()
        self.head_self = Detect(nc=nc)
        self._initialize_biases()  # only run once

    def _initialize_biases(self, cf=None):  # initialize biases into Detect(), cf is class frequency
        m = self.head_self  # Detect() module
        for mi, s in zip(m.m, m.stride):  # from
            b = mi.bias.view(m.na, -1)  # conv.bias(255) to (3,85)
            with torch.no_grad():
                b[:, 4] += math.log(8 / (640 / s) ** 2)  # obj (8 objects per 640 image)
                b[:, 5:] += math.log(0.6 / (m.nc - 0.99)) if cf is None else torch.log(cf / cf.sum())  # cls
            mi.bias = torch.nn.Parameter(b.view(-1), requires_grad=True)


model_dst = Model(nc=80)
