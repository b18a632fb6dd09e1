# source: variant of 1117_yolov5_initialize_biases_view_inplace.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — YOLOv5's actual fix: b.data[:, 4] += ...
# checked: ran, no error (exit 0)
import math
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, nc=3, na=3, ch=(8, 16)):
        super().__init__()
        self.nc, self.na, self.no = nc, na, nc + 5
        self.convs = nn.ModuleList([nn.Conv2d(c, self.na * self.no, 1) for c in ch])
        self.strides = [8, 16]
        self.init_biases()

    def init_biases(self):
        for conv, s in zip(self.convs, self.strides):
            b = conv.bias.view(self.na, -1)
            b.data[:, 4] += math.log(8 / (640 / s) ** 2)
            b.data[:, 5:] += math.log(0.6 / (self.nc - 0.99))
            conv.bias = nn.Parameter(b.view(-1), requires_grad=True)


head = Head()
