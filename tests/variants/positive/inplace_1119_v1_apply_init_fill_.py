# source: variant of 1119_nnue_zero_virtual_feature_weights.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: weight init function applied with self.apply(): m.bias.fill_(0) / m.weight.normal_() on parameters with grad mode on (missing .data / no_grad)
# expect: line 20 — m.bias.fill_(0.0) on a parameter
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
        self.apply(self._init_weights)

    def _init_weights(self, m):
        if isinstance(m, nn.Linear):
            m.bias.fill_(0.0)
            m.weight.normal_(0.0, 0.02)

    def forward(self, x):
        return self.body(x)


net = Net()
