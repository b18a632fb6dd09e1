# source: variant of 3102_smp_dice_threshold.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# negative: fixed twin: a smooth surrogate (softmax / soft-argmax / straight-through / masked blend) keeps a gradient path
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class SoftJaccard(nn.Module):
    def __init__(self, threshold=0.5):
        super().__init__()
        self.threshold = threshold

    @staticmethod
    def binarize(x, threshold):
        return x + (x.gt(threshold).float() - x).detach()

    def forward(self, y_pr, y_gt):
        y_pr = self.binarize(torch.sigmoid(y_pr), self.threshold)
        inter = (y_pr * y_gt).sum()
        return 1 - inter / (y_pr.sum() + y_gt.sum() - inter + 1e-7)


class Trainer:
    def __init__(self):
        self.model = nn.Conv2d(3, 1, 3, padding=1)
        self.criterion = SoftJaccard()
        self.optimizer = torch.optim.Adam(self.model.parameters())

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.criterion(self.model(x), y)
        loss.backward()
        self.optimizer.step()


Trainer().train_step(torch.randn(2, 3, 16, 16), (torch.rand(2, 1, 16, 16) > 0.5).float())
