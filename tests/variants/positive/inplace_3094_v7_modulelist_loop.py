# source: variant of 3094_relu_then_functional_relu_.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: layers kept in nn.ModuleList and run in a loop in forward: nn.Tanh() is followed by nn.ReLU(inplace=True)
# expect: line 18 — nn.ReLU(inplace=True) after nn.Tanh() in the ModuleList
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [4, 8]], which is output 0 of Tanh, is at version 1; expected version 0)
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([
            nn.Linear(8, 8),
            nn.Tanh(),
            nn.ReLU(inplace=True),
            nn.Linear(8, 1),
        ])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


Net()(torch.randn(4, 8)).sum().backward()
