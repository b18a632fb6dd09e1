# source: variant of 3092_embeddingnet_l2_output_idiv.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — L2 normalisation out of place
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        x = self.fc(x)
        x = x / x.norm(p=2, dim=1, keepdim=True)
        return x


net = Embedder()
a, b = net(torch.randn(8, 16)), net(torch.randn(8, 16))
(a * b).sum().backward()
