# source: variant of 3094_relu_then_functional_relu_.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: nn.Sequential with nn.Sigmoid() followed by nn.ReLU(inplace=True): the inplace ReLU overwrites the sigmoid output SigmoidBackward saved
# expect: line 14 — nn.ReLU(inplace=True) right after nn.Sigmoid() in nn.Sequential
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [4, 8]], which is output 0 of Sigmoid, is at version 1; expected versio)
import torch
import torch.nn as nn

model = nn.Sequential(
    nn.Linear(8, 8),
    nn.Sigmoid(),
    nn.ReLU(inplace=True),
    nn.Linear(8, 1),
)
model(torch.randn(4, 8)).sum().backward()
