# source: variant of 3092_embeddingnet_l2_output_idiv.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: in-place L2 normalisation x /= x.norm(dim=1, keepdim=True): norm saved x for its backward
# expect: line 19 — x /= x.norm(...) on the tensor norm saved
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [8, 4]], which is output 0 of Div, is at version 1; expected version 0 )
import torch
import torch.nn as nn


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        x = self.fc(x)
        x /= x.norm(p=2, dim=1, keepdim=True)
        return x


net = Embedder()
a, b = net(torch.randn(8, 16)), net(torch.randn(8, 16))
(a * b).sum().backward()
