# source: https://pytorch.org/tutorials/recipes/recipes/zeroing_out_gradients.html
# family: D
# pitfall: Trainer.train_epoch calls loss.backward() and optimizer.step() but never clears gradients
# expect: line 22 — no zero_grad() anywhere in the loop: .grad accumulates across all previous batches and every step uses the running sum

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.criterion = nn.BCEWithLogitsLoss()

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for x, y in loader:
            logits = self.model(x).squeeze(-1)
            loss = self.criterion(logits, y)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(loader)


trainer = Trainer(nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1)))
data = [(torch.randn(16, 12), torch.randint(0, 2, (16,)).float()) for _ in range(50)]
for epoch in range(5):
    print(epoch, trainer.train_epoch(data))
