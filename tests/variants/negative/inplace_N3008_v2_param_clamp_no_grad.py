# source: variant of 3008_leaf_alias_imul.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — parameter clamped under no_grad at the start of forward
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class Mix(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = nn.Parameter(torch.tensor(0.5))
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x):
        with torch.no_grad():
            self.alpha.clamp_(0.0, 1.0)
        return self.alpha * self.a(x) + (1 - self.alpha) * self.b(x)


m = Mix()
m(torch.randn(3, 4)).sum().backward()
