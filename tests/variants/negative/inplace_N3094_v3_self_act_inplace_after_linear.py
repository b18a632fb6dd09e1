# source: variant of 3094_relu_then_functional_relu_.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — ReLU(inplace=True) after a Linear (Linear does not save its output)
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.act = nn.ReLU(inplace=True)
        self.out = nn.Linear(8, 1)

    def forward(self, x):
        x = self.fc(x)
        x = self.act(x)
        return torch.sigmoid(self.out(x))


Gate()(torch.randn(3, 8)).sum().backward()
