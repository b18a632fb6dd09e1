# source: https://github.com/h1yuol/pytorch-triplet-loss/issues/1
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the batch-hard triplet loss guards sqrt with an epsilon mask, then zeroes the masked distances with distances *= (1 - mask), an in-place multiply of the sqrt output that SqrtBackward saved (found when running the code quoted in the thread, which asks about the epsilon)
# expect: line 23 — distances *= (1 - mask) modifies the output of torch.sqrt in place; backward fails with "modified by an inplace operation"
# checked: ran, reproduces

import torch


def _pairwise_distances(embeddings, squared=False):
    dot_product = torch.matmul(embeddings, embeddings.t())
    square_norm = torch.diag(dot_product)
    distances = square_norm.unsqueeze(0) - 2.0 * dot_product + square_norm.unsqueeze(1)
    distances[distances < 0] = 0

    if not squared:
        epsilon = 1e-16
        mask = torch.eq(distances, 0).float()
        distances += mask * epsilon
        distances = torch.sqrt(distances)
        distances *= (1 - mask)

    return distances


embeddings = torch.randn(4, 8, requires_grad=True)
d = _pairwise_distances(embeddings)
d.sum().backward()
