# source: https://github.com/huggingface/sentence-transformers/pull/4033
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: the Euclidean similarity is written as sqrt(sum((a - b) ** 2)); identical embeddings (distance 0) give NaN gradients even when the triplet loss is 0
# expect: line 22 — the derivative of sqrt at 0 is infinite; for coincident embeddings the gradient becomes NaN (torch.linalg.vector_norm has a finite zero subgradient)
# checked: ran, reproduces (NaN gradient for identical embeddings)

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
    return -torch.sqrt(torch.sum((a - b) ** 2, dim=-1))


anchor = torch.randn(4, 8, requires_grad=True)
positive = anchor.detach().clone().requires_grad_(True)
negative = torch.randn(4, 8, requires_grad=True)
distance_pos = -pairwise_euclidean_sim(anchor, positive)
distance_neg = -pairwise_euclidean_sim(anchor, negative)
losses = torch.relu(distance_pos - distance_neg + 5.0)
losses.mean().backward()
print(anchor.grad)
