# source: https://github.com/huggingface/sentence-transformers/pull/4033
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: the fix verified by the maintainer: the distance uses torch.linalg.vector_norm, which has a finite zero subgradient at coincident embeddings
# mimics: positive/1030_sentence_transformers_euclidean_sqrt.py
# expect: no finding
# checked: ran, no error

import torch
from torch import Tensor


def pairwise_euclidean_sim(a: Tensor, b: Tensor) -> Tensor:
    """
    Computes the euclidean distance (pairwise) between a[i] and b[i].

    Returns:
        Tensor: Vector with res[i] = -euclidean_distance(a[i], b[i])
    """
    a = torch.as_tensor(a)
    b = torch.as_tensor(b)
    return -torch.linalg.vector_norm(a - b, ord=2, dim=-1)


anchor = torch.randn(4, 8, requires_grad=True)
positive = anchor.detach().clone().requires_grad_(True)
negative = torch.randn(4, 8, requires_grad=True)
distance_pos = -pairwise_euclidean_sim(anchor, positive)
distance_neg = -pairwise_euclidean_sim(anchor, negative)
losses = torch.relu(distance_pos - distance_neg + 5.0)
losses.mean().backward()
print(anchor.grad)
