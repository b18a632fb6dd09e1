# source: variant of 1202_multiresunet_respath_relu_output_iadd.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: a gate computed with torch.sigmoid is multiplied in place by a mask (gate *= mask); SigmoidBackward saved the gate
# expect: line 20 — gate *= mask on the sigmoid output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3, 8]], which is output 0 of Sigmoid, is at version 1; expected versio)
import torch
import torch.nn as nn


class GatedUnit(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.g = nn.Linear(d, d)
        self.v = nn.Linear(d, d)

    def forward(self, x, mask):
        gate = torch.sigmoid(self.g(x))
        gate *= mask
        return gate * self.v(x)


u = GatedUnit()
u(torch.randn(3, 8), (torch.rand(3, 8) > 0.5).float()).sum().backward()
