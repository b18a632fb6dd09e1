# source: variant of 3092_embeddingnet_l2_output_idiv.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — F.normalize output scaled in place (div does not save its output)
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn
import torch.nn.functional as F


class CosHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)
        self.scale = 16.0

    def forward(self, x):
        z = F.normalize(self.fc(x), dim=1)
        z *= self.scale
        return z


CosHead()(torch.randn(8, 16)).sum().backward()
