# source: variant of 1123_vllm_phi4_inplace_residual_adds.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: residual adds over a loop of layers with x += layer(x); each layer (a Linear) saved x
# expect: line 21 — x += layer(x) inside a loop over an nn.ModuleList
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3, 16]], which is output 0 of Add, is at version 3; expected version 2)
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
            x += layer(x)
        return x


ResidualMLP()(torch.randn(3, 4)).sum().backward()
