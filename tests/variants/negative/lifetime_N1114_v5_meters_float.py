# source: negative twin of 1114_v5_self_meters_dict.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: none: the meter adds float(loss)
# checked: ran (meter is a float)

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
            self.meters["loss"] += float(loss)
            self.meters["n"] += 1
        return self.meters["loss"] / self.meters["n"]


if __name__ == "__main__":
    t = Trainer(nn.Linear(8, 4))
    print(t.train_epoch([(torch.randn(4, 8), torch.randint(0, 4, (4,))) for _ in range(3)]))
