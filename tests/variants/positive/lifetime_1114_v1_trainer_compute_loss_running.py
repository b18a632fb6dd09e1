# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: a Trainer's train_epoch gets the loss from self.compute_loss(batch) and keeps running_loss += loss (the tensor), so every batch's graph stays alive for the whole epoch
# expect: line 32 — running_loss += loss keeps each batch's graph; use loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def compute_loss(self, batch):
        x, y = batch
        logits = self.model(x)
        return F.cross_entropy(logits, y)

    def train_epoch(self, loader):
        self.model.train()
        running_loss = 0.0
        for batch in loader:
            self.optimizer.zero_grad()
            loss = self.compute_loss(batch)
            loss.backward()
            self.optimizer.step()
            running_loss += loss
        return running_loss / len(loader)


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
    loader = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
    avg = Trainer(model).train_epoch(loader)
    pass
