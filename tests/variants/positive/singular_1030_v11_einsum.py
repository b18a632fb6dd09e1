# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: squared norm through einsum then torch.sqrt; anchor equal to positive gives 0 and NaN
# expect: line 14 — torch.sqrt(torch.einsum('bd,bd->b', diff, diff)) at 0
# checked: ran (torch 2.13 CPU), reproduces (anchor.grad all nan)

import torch


def l2(a, b):
    diff = a - b
    return torch.sqrt(torch.einsum("bd,bd->b", diff, diff))


anchor = torch.randn(4, 8, requires_grad=True)
positive = anchor.detach().clone()
l2(anchor, positive).mean().backward()
print(anchor.grad)
