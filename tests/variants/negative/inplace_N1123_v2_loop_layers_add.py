# source: variant of 1123_vllm_phi4_inplace_residual_adds.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — residual written out of place
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class ResidualMLP(nn.Module):
    def __init__(self, d=16, depth=3):
        super().__init__()
        self.inp = nn.Linear(4, d)
        self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(depth)])

    def forward(self, x):
        x = self.inp(x)
        for layer in self.layers:
            x = x + layer(x)
        return x


ResidualMLP()(torch.randn(3, 4)).sum().backward()
