# source: variant of 1042_racnn_rank_loss_vector_backward.py
# framework: torch
# family: F
# kind: backward-nonscalar
# negative: fixed twin: the output is reduced (.mean()/.sum()) or grad_outputs is passed
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.criterion = nn.CrossEntropyLoss(reduction="none")
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = self.criterion(self.model(x), y)
        loss.mean().backward()
        self.optimizer.step()
        return loss.mean().item()


Trainer(nn.Linear(8, 5)).train_step(torch.randn(16, 8), torch.randint(0, 5, (16,)))
