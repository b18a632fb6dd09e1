# source: variant of 3094_relu_then_functional_relu_.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: nn.Sequential built from an OrderedDict: ('sig', nn.Sigmoid()) followed by ('act', nn.ReLU(inplace=True))
# expect: line 16 — ('act', nn.ReLU(inplace=True)) right after the Sigmoid
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [4, 8]], which is output 0 of Sigmoid, is at version 1; expected versio)
from collections import OrderedDict

import torch
import torch.nn as nn

model = nn.Sequential(OrderedDict([
    ("fc", nn.Linear(8, 8)),
    ("sig", nn.Sigmoid()),
    ("act", nn.ReLU(inplace=True)),
    ("out", nn.Linear(8, 1)),
]))
model(torch.randn(4, 8)).sum().backward()
