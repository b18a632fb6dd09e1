# source: https://pytorch.org/docs/stable/generated/torch.nn.LayerNorm.html
# family: E
# negative: hand-written LayerNorm uses torch.sqrt(var + eps), and embeddings are normalised with F.normalize (eps inside), so zero rows give finite gradients
# mimics: sqrt of a variance / of a sum of squares
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F


class MyLayerNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.gamma, self.beta, self.eps = nn.Parameter(torch.ones(d)), nn.Parameter(torch.zeros(d)), eps

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        var = ((x - mu) ** 2).mean(-1, keepdim=True)
        return self.gamma * (x - mu) / torch.sqrt(var + self.eps) + self.beta


proj = nn.Linear(32, 32, bias=False)
tokens = torch.randn(4, 10, 32)
tokens[:, 7:] = 0.0
h = MyLayerNorm(32)(proj(tokens))
z = F.normalize(h * (torch.arange(10) < 7).view(1, 10, 1), dim=-1)
z.sum().backward()
assert torch.isfinite(proj.weight.grad).all()
