# source: variant of 1117_yolov5_initialize_biases_view_inplace.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: YOLO head bias prior: b = conv.bias.view(na, -1) then b[:, 4].add_(...) on the view (method spelling), grad mode on
# expect: line 24 — b[:, 4].add_(...) on a view of the leaf parameter conv.bias
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
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
            b[:, 4].add_(math.log(8 / (640 / s) ** 2))
            b[:, 5:].add_(math.log(0.6 / (self.nc - 0.99)))


head = Head()
