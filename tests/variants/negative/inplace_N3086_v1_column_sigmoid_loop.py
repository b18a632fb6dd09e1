# source: variant of 3086_softplus_column_recurrence.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — column-wise x[:, i] = torch.sigmoid(x[:, i]): sigmoid saves only its (fresh) output, so no saved tensor aliases x
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, inp):
        x = self.fc(inp)
        for i in range(1, x.shape[1]):
            x[:, i] = torch.sigmoid(x[:, i])
        return x


Head()(torch.randn(5, 4)).sum().backward()
