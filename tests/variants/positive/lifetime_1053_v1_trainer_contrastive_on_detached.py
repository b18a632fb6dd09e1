# source: variant of 1053_dsn_memory_loss_on_detached_features.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: a trainer adds a center/contrastive term computed from feats.detach() to the classification loss; the term is a constant and never shapes the encoder's features
# expect: line 44 — self.center_loss(feats.detach(), y) contributes nothing to backward
# checked: ran, reproduces (the auxiliary term has no grad_fn)

import torch
import torch.nn as nn
import torch.nn.functional as F


class CenterLoss(nn.Module):
    def __init__(self, n_classes=3, dim=16):
        super().__init__()
        self.register_buffer("centers", torch.randn(n_classes, dim))

    def forward(self, feats, labels):
        return (feats - self.centers[labels]).pow(2).sum(1).mean()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(32, 16), nn.ReLU())
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        feats = self.encoder(x)
        return feats, self.head(feats)


class Trainer:
    def __init__(self):
        self.model = Net()
        self.center_loss = CenterLoss()
        self.lam = 0.1
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01)

    def compute_loss(self, x, y):
        feats, logits = self.model(x)
        loss_ce = F.cross_entropy(logits, y)
        loss_center = self.center_loss(feats.detach(), y)
        return loss_ce + self.lam * loss_center, loss_center

    def step(self, x, y):
        loss, loss_center = self.compute_loss(x, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss_center


if __name__ == "__main__":
    lc = Trainer().step(torch.randn(8, 32), torch.randint(0, 3, (8,)))
    pass
