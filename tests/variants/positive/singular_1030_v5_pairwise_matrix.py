# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: pairwise distance matrix sqrt(((x[:, None] - x[None]) ** 2).sum(-1)) includes the zero diagonal; its gradient is NaN
# expect: line 15 — torch.sqrt over a distance matrix whose diagonal is 0
# checked: ran (torch 2.13 CPU), reproduces (NaN in net.weight.grad (zero diagonal of the distance matrix))

import torch
from torch import nn


def batch_hard_triplet_loss(embeddings, labels, margin=0.3):
    diff = embeddings.unsqueeze(1) - embeddings.unsqueeze(0)
    dist = torch.sqrt((diff ** 2).sum(-1))
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
