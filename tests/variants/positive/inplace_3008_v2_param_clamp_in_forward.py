# source: variant of 3008_leaf_alias_imul.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: a learnable nn.Parameter is clamped in place inside forward (self.alpha.clamp_(0, 1)) with grad mode on
# expect: line 20 — self.alpha.clamp_(0.0, 1.0) in-place on a parameter during forward
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn


class Mix(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = nn.Parameter(torch.tensor(0.5))
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x):
        self.alpha.clamp_(0.0, 1.0)
        return self.alpha * self.a(x) + (1 - self.alpha) * self.b(x)


m = Mix()
m(torch.randn(3, 4)).sum().backward()
