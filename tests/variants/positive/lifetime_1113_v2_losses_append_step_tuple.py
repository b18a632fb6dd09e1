# source: variant of 1113_stagate_loss_list_append.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: loss, logs = self.step(batch); the epoch method appends the loss tensor to a list that is averaged at the end of the epoch, so every batch's graph is kept
# expect: line 33 — losses.append(loss) stores the graph-carrying loss of every batch; append loss.item() (or loss.detach())
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import numpy as np
import torch
import torch.nn as nn


class Learner:
    def __init__(self, model, optimizer, loss_fn):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn

    def step(self, batch):
        x, y = batch
        pred = self.model(x)
        loss = self.loss_fn(pred, y)
        return loss, {"batch_size": x.shape[0]}

    def train_epoch(self, loader):
        losses = []
        for batch in loader:
            loss, logs = self.step(batch)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            losses.append(loss)
        return torch.stack(losses).mean()


if __name__ == "__main__":
    model = nn.Linear(6, 2)
    learner = Learner(model, torch.optim.SGD(model.parameters(), lr=0.1), nn.MSELoss())
    loader = [(torch.randn(4, 6), torch.randn(4, 2)) for _ in range(3)]
    pass
