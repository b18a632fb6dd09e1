# source: variant of 1119_nnue_zero_virtual_feature_weights.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: the virtual-feature columns are zeroed through a masked_fill_ on the layer weight, the layer reached through a list of layers
# expect: line 21 — layer.weight.masked_fill_(mask, 0) on a parameter with grad mode on
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch
from torch import nn


class SparseNet(nn.Module):
    def __init__(self, n_in=16, hidden=8):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(n_in, hidden), nn.Linear(hidden, hidden)])
        self.register_buffer("mask", torch.rand(hidden, n_in) < 0.5)
        self.prune()

    def prune(self):
        layer = self.layers[0]
        layer.weight.masked_fill_(self.mask, 0.0)

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


net = SparseNet()
