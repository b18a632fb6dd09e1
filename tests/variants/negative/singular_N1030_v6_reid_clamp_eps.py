# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: the common re-id fix: dist.clamp(min=1e-12).sqrt()
# mimics: 1030_v6_reid_expand_clamp0_sqrt.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
from torch import nn


def euclidean_dist(x, y):
    m, n = x.size(0), y.size(0)
    xx = torch.pow(x, 2).sum(1, keepdim=True).expand(m, n)
    yy = torch.pow(y, 2).sum(1, keepdim=True).expand(n, m).t()
    dist = xx + yy - 2 * torch.matmul(x, y.t())
    dist = dist.clamp(min=1e-12).sqrt()
    return dist


net = nn.Linear(16, 8).double()
feats = net(torch.randn(6, 16, dtype=torch.float64))
dist_mat = euclidean_dist(feats, feats)
loss = dist_mat.mean()
loss.backward()
print(torch.isnan(net.weight.grad).any().item())
