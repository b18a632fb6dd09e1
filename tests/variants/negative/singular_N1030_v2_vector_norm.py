# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: uses torch.linalg.vector_norm(a - b, dim=-1), whose gradient at 0 is defined (0)
# mimics: 1030_v2_pow_half.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def pairwise_distance(a, b):
    return torch.linalg.vector_norm(a - b, dim=-1)


anchor = torch.randn(4, 8, requires_grad=True)
positive = anchor.detach().clone().requires_grad_(True)
negative = torch.randn(4, 8, requires_grad=True)
losses = torch.relu(pairwise_distance(anchor, positive) - pairwise_distance(anchor, negative) + 5.0)
losses.mean().backward()
print(torch.isnan(anchor.grad).any().item())
