# source: synthetic
# family: A
# pitfall: contrastive loss module uses np.maximum(margin - d, 0) for the hinge instead of torch.clamp / F.relu
# expect: line 19 — np.maximum on the distance tensor forces a NumPy conversion of a graph tensor: the loss cannot be backpropagated to the embedding net

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContrastiveLoss(nn.Module):
    def __init__(self, margin=2.0):
        super().__init__()
        self.margin = margin

    def forward(self, z1, z2, same):
        d = F.pairwise_distance(z1, z2)
        neg = np.maximum(self.margin - d, 0.0) ** 2
        return torch.mean(same * d.pow(2) + (1 - same) * neg)


embed = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 16))
criterion = ContrastiveLoss()
a, b = torch.randn(32, 128), torch.randn(32, 128)
same = torch.randint(0, 2, (32,)).float()
loss = criterion(embed(a), embed(b), same)
loss.backward()
