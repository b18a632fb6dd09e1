# source: variant of 3094_relu_then_functional_relu_.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — OrderedDict Sequential with Linear -> ReLU(inplace=True)
# checked: ran, no error (exit 0)
from collections import OrderedDict

import torch
import torch.nn as nn

model = nn.Sequential(OrderedDict([
    ("fc", nn.Linear(8, 8)),
    ("act", nn.ReLU(inplace=True)),
    ("out", nn.Linear(8, 1)),
    ("sig", nn.Sigmoid()),
]))
model(torch.randn(4, 8)).sum().backward()
