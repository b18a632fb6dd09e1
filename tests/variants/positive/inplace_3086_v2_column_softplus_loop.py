# source: variant of 3086_softplus_column_recurrence.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: x[:, i] = F.softplus(x[:, i]) applied column by column in a loop; softplus saved its input, a view of x, and the next store bumps x's version
# expect: line 21 — x[:, i] = F.softplus(x[:, i]) in a loop
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [5]], which is output 0 of AsStrided, is at version 2; expected version)
import torch
import torch.nn as nn
import torch.nn.functional as F


class PositiveHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, inp):
        x = self.fc(inp)
        for i in range(1, x.shape[1]):
            x[:, i] = F.softplus(x[:, i])
        return x


PositiveHead()(torch.randn(5, 4)).sum().backward()
