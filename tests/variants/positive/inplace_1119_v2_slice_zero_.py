# source: variant of 1119_nnue_zero_virtual_feature_weights.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: a slice of the input layer's weight is zeroed with .zero_() on the view, in a helper method, grad mode on
# expect: line 22 — self.input.weight[:, a:b].zero_() in-place on a view of a parameter
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import torch
from torch import nn


class NNUE(nn.Module):
    def __init__(self, num_features=64, virtual=(48, 64)):
        super().__init__()
        self.virtual = virtual
        self.input = nn.Linear(num_features, 32)
        self.out = nn.Linear(32, 1)
        self.zero_virtual()

    def zero_virtual(self):
        a, b = self.virtual
        self.input.weight[:, a:b].zero_()

    def forward(self, x):
        return self.out(torch.clamp(self.input(x), 0, 1))


model = NNUE()
