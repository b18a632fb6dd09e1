# source: variant of 1025_where_cos_of_inf.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: cosine cutoff written as a function with torch.where(x < 1.0, x.cos(), 0.0) on an input that contains inf (float('inf') literal)
# expect: line 13 — torch.where(x < 1.0, x.cos(), torch.zeros_like(x)) with x = inf
# checked: ran (torch 2.13 CPU), reproduces (grad = [-0., nan])

import torch


def cutoff_fn(x):
    return torch.where(x < 1.0, x.cos(), torch.zeros_like(x))


x = torch.tensor([0.0, float("inf")], requires_grad=True)
y = cutoff_fn(x)
print(torch.autograd.grad(y.sum(), x))
