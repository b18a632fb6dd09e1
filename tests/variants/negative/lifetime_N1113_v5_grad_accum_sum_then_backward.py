# source: negative for 1113_stagate_loss_list_append.py (list of losses backpropagated together)
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: none: per-chunk losses are collected in a list and backpropagated once at the end of the step; the list is rebuilt every step
# checked: ran (one backward per step; nothing kept across steps)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    def train_step(self, x, y, n_chunks=2):
        losses = []
        for xc, yc in zip(x.chunk(n_chunks), y.chunk(n_chunks)):
            losses.append(F.mse_loss(self.model(xc), yc))
        loss = torch.stack(losses).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, loader):
        total = 0.0
        for x, y in loader:
            total += self.train_step(x, y)
        return total


if __name__ == "__main__":
    print(Trainer(nn.Linear(4, 1)).fit([(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]))
