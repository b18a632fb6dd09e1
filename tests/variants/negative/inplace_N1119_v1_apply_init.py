# source: variant of 1119_nnue_zero_virtual_feature_weights.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — apply()'d init fn uses nn.init (which runs under no_grad)
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
        self.apply(self._init_weights)

    def _init_weights(self, m):
        if isinstance(m, nn.Linear):
            nn.init.zeros_(m.bias)
            m.weight.data.normal_(0.0, 0.02)

    def forward(self, x):
        return self.body(x)


net = Net()
