# source: negative twin of 1114_v10_val_loop_no_nograd.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: none: validation runs under @torch.no_grad(), so val_loss += loss holds no graph
# checked: ran (val_loss has no grad_fn; .item() works)

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_epoch(self, loader):
        self.model.train()
        for x, y in loader:
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()

    @torch.no_grad()
    def validate(self, loader):
        self.model.eval()
        val_loss = 0
        for x, y in loader:
            loss = self.criterion(self.model(x), y)
            val_loss += loss
        return val_loss / len(loader)


if __name__ == "__main__":
    t = Trainer(nn.Linear(8, 3))
    loader = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
    t.train_epoch(loader)
    print(t.validate(loader).item())
