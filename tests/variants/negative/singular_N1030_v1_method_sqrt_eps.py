# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: eps inside the root: ((a - b) ** 2).sum(-1).add(1e-12).sqrt()
# mimics: 1030_v1_method_sqrt.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def euclidean_distance(a, b):
    return ((a - b) ** 2).sum(-1).add(1e-12).sqrt()


anchor = torch.randn(4, 8, requires_grad=True)
positive = anchor.detach().clone().requires_grad_(True)
negative = torch.randn(4, 8, requires_grad=True)
losses = torch.relu(euclidean_distance(anchor, positive) - euclidean_distance(anchor, negative) + 5.0)
losses.mean().backward()
print(torch.isnan(anchor.grad).any().item())
