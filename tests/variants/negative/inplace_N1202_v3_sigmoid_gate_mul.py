# source: variant of 1202_multiresunet_respath_relu_output_iadd.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — gate multiplied by mask out of place
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class GatedUnit(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.g = nn.Linear(d, d)
        self.v = nn.Linear(d, d)

    def forward(self, x, mask):
        gate = torch.sigmoid(self.g(x))
        gate = gate * mask
        return gate * self.v(x)


u = GatedUnit()
u(torch.randn(3, 8), (torch.rand(3, 8) > 0.5).float()).sum().backward()
