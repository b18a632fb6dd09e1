# source: negative twin of 1114_v1_trainer_compute_loss_running.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: none: running_loss accumulates loss.item()
# checked: ran (running_loss is a float)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def compute_loss(self, batch):
        x, y = batch
        return F.cross_entropy(self.model(x), y)

    def train_epoch(self, loader):
        self.model.train()
        running_loss = 0.0
        for batch in loader:
            self.optimizer.zero_grad()
            loss = self.compute_loss(batch)
            loss.backward()
            self.optimizer.step()
            running_loss += loss.item()
        return running_loss / len(loader)


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
    loader = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
    print(Trainer(model).train_epoch(loader))
