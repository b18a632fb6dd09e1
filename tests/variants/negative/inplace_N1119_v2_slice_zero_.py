# source: variant of 1119_nnue_zero_virtual_feature_weights.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — slice zeroed under torch.no_grad()
# checked: ran, no error (exit 0)
import torch
from torch import nn


class NNUE(nn.Module):
    def __init__(self, num_features=64, virtual=(48, 64)):
        super().__init__()
        self.virtual = virtual
        self.input = nn.Linear(num_features, 32)
        self.out = nn.Linear(32, 1)
        self.zero_virtual()

    @torch.no_grad()
    def zero_virtual(self):
        a, b = self.virtual
        self.input.weight[:, a:b].zero_()

    def forward(self, x):
        return self.out(torch.clamp(self.input(x), 0, 1))


model = NNUE()
