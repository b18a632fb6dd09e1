# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: F.pairwise_distance (eps added to the difference) instead of the hand-written root
# mimics: 1030_v7_siamese_trainer.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
from torch import nn


class ContrastiveLoss(nn.Module):
    def __init__(self, margin=2.0):
        super().__init__()
        self.margin = margin

    def forward(self, output1, output2, label):
        distance = nn.functional.pairwise_distance(output1, output2)
        return torch.mean((1 - label) * distance ** 2 + label * torch.clamp(self.margin - distance, min=0.0) ** 2)


class SiameseTrainer:
    def __init__(self):
        self.net = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 4))
        self.criterion = ContrastiveLoss()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=1e-3)

    def step(self, x1, x2, label):
        out = self.criterion(self.net(x1), self.net(x2), label)
        self.optimizer.zero_grad()
        out.backward()
        bad = any(torch.isnan(p.grad).any().item() for p in self.net.parameters())
        self.optimizer.step()
        return bad


trainer = SiameseTrainer()
x = torch.randn(4, 10)
print(trainer.step(x, x.clone(), torch.tensor([0., 1., 0., 1.])))
