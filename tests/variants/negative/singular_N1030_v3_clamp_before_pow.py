# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: input floored before the power: sq.clamp_min(1e-12) ** 0.5
# mimics: 1030_v3_starstar_half_var.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def pairwise_distance(a, b):
    sq = torch.sum((a - b) ** 2, dim=-1)
    return sq.clamp_min(1e-12) ** 0.5


anchor = torch.randn(4, 8, requires_grad=True)
positive = anchor.detach().clone().requires_grad_(True)
negative = torch.randn(4, 8, requires_grad=True)
losses = torch.relu(pairwise_distance(anchor, positive) - pairwise_distance(anchor, negative) + 5.0)
losses.mean().backward()
print(torch.isnan(anchor.grad).any().item())
