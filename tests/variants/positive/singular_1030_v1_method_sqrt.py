# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: Euclidean distance written as ((a - b) ** 2).sum(-1).sqrt() (method form); identical embeddings give NaN gradient
# expect: line 13 — ((a - b) ** 2).sum(-1).sqrt() at distance 0
# checked: ran (torch 2.13 CPU), reproduces (NaN in anchor.grad for identical anchor/positive)

import torch


def euclidean_distance(a, b):
    return ((a - b) ** 2).sum(-1).sqrt()


anchor = torch.randn(4, 8, requires_grad=True)
positive = anchor.detach().clone().requires_grad_(True)
negative = torch.randn(4, 8, requires_grad=True)
losses = torch.relu(euclidean_distance(anchor, positive) - euclidean_distance(anchor, negative) + 5.0)
losses.mean().backward()
print(torch.isnan(anchor.grad).any().item())
