# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: distance written as (a - b).pow(2).sum(dim=-1).pow(0.5); identical pairs give NaN gradient
# expect: line 13 — (a - b).pow(2).sum(dim=-1).pow(0.5) at distance 0
# checked: ran (torch 2.13 CPU), reproduces (NaN in anchor.grad for identical anchor/positive)

import torch


def pairwise_distance(a, b):
    return (a - b).pow(2).sum(dim=-1).pow(0.5)


anchor = torch.randn(4, 8, requires_grad=True)
positive = anchor.detach().clone().requires_grad_(True)
negative = torch.randn(4, 8, requires_grad=True)
losses = torch.relu(pairwise_distance(anchor, positive) - pairwise_distance(anchor, negative) + 5.0)
losses.mean().backward()
print(torch.isnan(anchor.grad).any().item())
