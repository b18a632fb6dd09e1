# source: variant of 3094_relu_then_functional_relu_.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: an activation module self.act = nn.ReLU(inplace=True) is applied to a sigmoid output in forward
# expect: line 21 — x = self.act(x) where act is ReLU(inplace=True) on a sigmoid output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3, 8]], which is output 0 of Sigmoid, is at version 1; expected versio)
import torch
import torch.nn as nn


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.act = nn.ReLU(inplace=True)
        self.out = nn.Linear(8, 1)

    def forward(self, x):
        x = torch.sigmoid(self.fc(x))
        x = self.act(x)
        return self.out(x)


Gate()(torch.randn(3, 8)).sum().backward()
