# source: variant of 1117_yolov5_initialize_biases_view_inplace.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: bias reshaped with .view and the objectness column updated with index +=, the head reached through model.model[-1] (an nn.Sequential)
# expect: line 25 — b[:, 4] += ... on a view of the Detect conv bias
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import math
import torch
import torch.nn as nn


class Detect(nn.Module):
    def __init__(self, nc=2, na=3, ch=(8,)):
        super().__init__()
        self.nc, self.na = nc, na
        self.m = nn.ModuleList(nn.Conv2d(c, na * (nc + 5), 1) for c in ch)
        self.stride = torch.tensor([8.0])


def initialize_biases(model):
    det = model.model[-1]
    for mi, s in zip(det.m, det.stride):
        b = mi.bias.view(det.na, -1)
        b[:, 4] += math.log(8 / (640 / s) ** 2)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), Detect())


model = Model()
initialize_biases(model)
