# source: variant of 3094_relu_then_functional_relu_.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — standard conv-BN-ReLU(inplace=True) Sequential (BN does not save its output)
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.BatchNorm2d(8),
    nn.ReLU(inplace=True),
    nn.Conv2d(8, 8, 3, padding=1),
    nn.ReLU(inplace=True),
    nn.AdaptiveAvgPool2d(1),
)
model(torch.randn(2, 3, 8, 8)).sum().backward()
