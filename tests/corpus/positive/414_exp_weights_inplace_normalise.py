# source: https://pytorch.org/docs/stable/notes/autograd.html
# family: D
# pitfall: attention-pooling weights computed as torch.exp(scores) and then normalised in place with w /= w.sum(...)
# expect: line 17 — exp() saves its result for backward; the in-place division modifies that saved tensor and backward fails

import torch
import torch.nn as nn


class AttnPool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, h):
        w = torch.exp(self.score(h))
        w /= w.sum(dim=1, keepdim=True)
        return (w * h).sum(dim=1)


pool = AttnPool(32)
h = torch.randn(4, 10, 32)
out = pool(h)
out.pow(2).mean().backward()
