# source: variant of 1113_stagate_loss_list_append.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the trainer appends every step's loss tensor to self.history["train_loss"] for plotting, keeping the graph of every step alive
# expect: line 30 — self.history["train_loss"].append(loss) stores the graph-carrying loss of every step; append loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn
import torch.nn.functional as F


class AutoEncoderTrainer:
    def __init__(self, in_dim=32, z_dim=8):
        self.model = nn.Sequential(nn.Linear(in_dim, z_dim), nn.ELU(), nn.Linear(z_dim, in_dim))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.history = {"train_loss": []}

    def compute_loss(self, x):
        return F.mse_loss(self.model(x), x)

    def fit(self, x, n_epochs=5):
        for epoch in range(n_epochs):
            self.model.train()
            self.optimizer.zero_grad()
            loss = self.compute_loss(x)
            loss.backward()
            self.optimizer.step()
            self.history["train_loss"].append(loss)
        return self.history


if __name__ == "__main__":
    h = AutoEncoderTrainer().fit(torch.randn(20, 32))
    pass
