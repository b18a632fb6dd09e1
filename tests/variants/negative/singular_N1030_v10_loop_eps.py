# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: eps added inside the root
# mimics: 1030_v10_loop_accumulated.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def multi_head_distance(heads_a, heads_b):
    sq = 0.0
    for ha, hb in zip(heads_a, heads_b):
        sq = sq + torch.square(ha - hb).sum(-1)
    dist = (sq + 1e-12).sqrt()
    return dist


a = torch.randn(3, 4, requires_grad=True)
b = a.detach().clone()
d = multi_head_distance(a.split(2, dim=-1), b.split(2, dim=-1))
d.mean().backward()
print(a.grad)
