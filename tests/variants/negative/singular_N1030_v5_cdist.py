# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: pairwise matrix via torch.cdist, whose backward is 0 at zero distance
# mimics: 1030_v5_pairwise_matrix.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
from torch import nn


def batch_hard_triplet_loss(embeddings, labels, margin=0.3):
    dist = torch.cdist(embeddings, embeddings)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    hardest_pos = (dist * same.float()).max(1)[0]
    hardest_neg = (dist + 1e5 * same.float()).min(1)[0]
    return torch.relu(hardest_pos - hardest_neg + margin).mean()


net = nn.Linear(16, 8)
x = torch.randn(6, 16)
y = torch.tensor([0, 0, 1, 1, 2, 2])
loss = batch_hard_triplet_loss(net(x), y)
loss.backward()
print(torch.isnan(net.weight.grad).any().item())
