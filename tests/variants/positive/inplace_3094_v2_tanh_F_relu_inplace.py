# source: variant of 3094_relu_then_functional_relu_.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: F.relu(x, inplace=True) applied to the output of torch.tanh, which TanhBackward saved
# expect: line 21 — x = F.relu(x, inplace=True) on a tanh output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3, 8]], which is output 0 of Tanh, is at version 1; expected version 0)
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        x = torch.tanh(self.fc1(x))
        x = F.relu(x, inplace=True)
        return self.fc2(x)


Block()(torch.randn(3, 8)).sum().backward()
