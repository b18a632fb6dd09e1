# source: variant of 3018_torch_acos_clamp_cos2theta.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: clamp strictly inside (-1, 1)
# mimics: 3018_v1_arcface_module.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import math
import torch
import torch.nn.functional as F
from torch import nn


class ArcFace(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.5):
        super().__init__()
        self.weight = nn.Parameter(torch.eye(out_features, in_features))
        self.s, self.m = s, m

    def forward(self, embedding, label):
        cosine = F.linear(F.normalize(embedding), F.normalize(self.weight))
        theta = torch.acos(torch.clamp(cosine, -1.0 + 1e-7, 1.0 - 1e-7))
        target = torch.cos(theta + self.m)
        one_hot = F.one_hot(label, cosine.size(1)).float()
        logits = self.s * (one_hot * target + (1 - one_hot) * cosine)
        return F.cross_entropy(logits, label)


head = ArcFace(4, 4)
emb = torch.tensor([[2.0, 0.0, 0.0, 0.0], [0.3, 0.5, 0.1, 0.2]], requires_grad=True)
loss = head(emb, torch.tensor([0, 1]))
loss.backward()
print(torch.isnan(head.weight.grad).any().item(), torch.isnan(emb.grad).any().item())
