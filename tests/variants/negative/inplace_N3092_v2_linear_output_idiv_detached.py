# source: variant of 3092_embeddingnet_l2_output_idiv.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — in-place division by the sum of a linear output (sum does not save its input; Linear does not save its output)
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        s = self.fc(x)
        s /= s.detach().abs().sum(dim=1, keepdim=True)
        return s


Scorer()(torch.randn(8, 16)).sum().backward()
