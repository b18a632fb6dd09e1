# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the trainer keeps running totals in self.meters["loss"] and adds the loss tensor itself each step, so the meter holds the graph of every batch of the epoch
# expect: line 34 — self.meters["loss"] += loss keeps each batch's graph; add loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.meters = defaultdict(float)

    def training_step(self, batch):
        x, y = batch
        loss = F.cross_entropy(self.model(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss

    def train_epoch(self, loader):
        self.meters.clear()
        for batch in loader:
            loss = self.training_step(batch)
            self.meters["loss"] += loss
            self.meters["n"] += 1
        return self.meters["loss"] / self.meters["n"]


if __name__ == "__main__":
    t = Trainer(nn.Linear(8, 4))
    loader = [(torch.randn(4, 8), torch.randint(0, 4, (4,))) for _ in range(3)]
    pass
