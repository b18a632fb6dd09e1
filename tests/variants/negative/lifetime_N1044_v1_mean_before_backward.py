# source: negative twin of 1044_v1_trainer_reduction_none_self_criterion.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: none: the per-pixel loss is averaged before backward
# checked: ran (no error; gradients reach the model)

import torch
import torch.nn as nn


class SegTrainer:
    def __init__(self, n_classes=5):
        self.model = nn.Conv2d(3, n_classes, 1)
        self.criterion = nn.CrossEntropyLoss(reduction="none", ignore_index=255)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01)

    def compute_loss(self, images, labels):
        logits = self.model(images)
        return self.criterion(logits, labels).mean()

    def train_step(self, images, labels):
        self.optimizer.zero_grad()
        loss = self.compute_loss(images, labels)
        loss.backward()
        self.optimizer.step()


if __name__ == "__main__":
    SegTrainer().train_step(torch.randn(2, 3, 8, 8), torch.randint(0, 5, (2, 8, 8)))
