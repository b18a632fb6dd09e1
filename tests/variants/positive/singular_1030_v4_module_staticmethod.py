# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: TripletLoss module keeps the distance function on self (sentence-transformers style); the metric is sqrt(sum((a-b)**2)) and identical anchor/positive give NaN
# expect: line 17 — torch.sqrt(torch.sum(diff * diff, dim=-1)) at distance 0
# checked: ran (torch 2.13 CPU), reproduces (NaN in model.weight.grad for identical anchor/positive inputs)

import torch
from torch import nn


class TripletDistanceMetric:
    @staticmethod
    def EUCLIDEAN(x, y):
        diff = x - y
        return torch.sqrt(torch.sum(diff * diff, dim=-1))


class TripletLoss(nn.Module):
    def __init__(self, model, distance_metric=TripletDistanceMetric.EUCLIDEAN, triplet_margin: float = 5):
        super().__init__()
        self.model = model
        self.distance_metric = distance_metric
        self.triplet_margin = triplet_margin

    def forward(self, features):
        rep_anchor, rep_pos, rep_neg = [self.model(f) for f in features]
        distance_pos = self.distance_metric(rep_anchor, rep_pos)
        distance_neg = self.distance_metric(rep_anchor, rep_neg)
        losses = torch.relu(distance_pos - distance_neg + self.triplet_margin)
        return losses.mean()


model = nn.Linear(8, 4)
loss_fn = TripletLoss(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(4, 8)
loss = loss_fn((x, x.clone(), torch.randn(4, 8)))
opt.zero_grad()
loss.backward()
print(torch.isnan(model.weight.grad).any().item())
