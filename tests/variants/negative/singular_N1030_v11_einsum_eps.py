# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: eps inside the root
# mimics: 1030_v11_einsum.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def l2(a, b):
    diff = a - b
    return torch.sqrt(torch.einsum("bd,bd->b", diff, diff) + 1e-12)


anchor = torch.randn(4, 8, requires_grad=True)
positive = anchor.detach().clone()
l2(anchor, positive).mean().backward()
print(anchor.grad)
