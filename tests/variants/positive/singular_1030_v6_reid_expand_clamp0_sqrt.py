# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: re-id style euclidean_dist: xx + yy - 2 x y^T, clamped at 0 then .sqrt(); the diagonal is 0 and sqrt' is inf there
# expect: line 18 — dist.clamp(min=0).sqrt() of a squared-distance matrix with a zero diagonal
# checked: ran (torch 2.13 CPU), reproduces (NaN in net.weight.grad (diagonal of xx + yy - 2xy clamps to 0))

import torch
from torch import nn


def euclidean_dist(x, y):
    m, n = x.size(0), y.size(0)
    xx = torch.pow(x, 2).sum(1, keepdim=True).expand(m, n)
    yy = torch.pow(y, 2).sum(1, keepdim=True).expand(n, m).t()
    dist = xx + yy - 2 * torch.matmul(x, y.t())
    dist = dist.clamp(min=0).sqrt()
    return dist


net = nn.Linear(16, 8).double()
feats = net(torch.randn(6, 16, dtype=torch.float64))
dist_mat = euclidean_dist(feats, feats)
loss = dist_mat.mean()
loss.backward()
print(torch.isnan(net.weight.grad).any().item())
