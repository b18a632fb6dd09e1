# source: variant of 1119_nnue_zero_virtual_feature_weights.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: virtual-feature columns zeroed with .zero_() on a slice whose bounds come from a loop over ranges (non-literal slice bounds), in a model that is trained
# expect: line 23 — weights[:, a:b].zero_() on a view of the parameter
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import torch
from torch import nn


class NNUE(nn.Module):
    def __init__(self, ranges=((48, 64),)):
        super().__init__()
        self.ranges = ranges
        self.input = nn.Linear(64, 32)
        self.out = nn.Linear(32, 1)
        self._zero_virtual_feature_weights()

    def _zero_virtual_feature_weights(self):
        weights = self.input.weight
        for a, b in self.ranges:
            weights[:, a:b].zero_()

    def forward(self, x):
        return self.out(torch.clamp(self.input(x), 0, 1))


model = NNUE()
model(torch.randn(4, 64)).sum().backward()
