# source: variant of 1204_examples_regression_param_add_leaf.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — Trainer's manual SGD step inside torch.no_grad()
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr=0.1):
        self.model = model
        self.lr = lr

    def train_step(self, x, y):
        self.model.zero_grad()
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        self.apply_gradients()
        return loss.item()

    @torch.no_grad()
    def apply_gradients(self):
        for p in self.model.parameters():
            p -= self.lr * p.grad


trainer = Trainer(nn.Linear(4, 1))
for step in range(3):
    trainer.train_step(torch.randn(8, 4), torch.randn(8, 1))
