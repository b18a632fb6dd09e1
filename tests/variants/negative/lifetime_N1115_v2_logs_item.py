# source: negative twin of 1115_v2_logs_dict_then_history.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: none: the logs dict holds loss.item()
# checked: ran

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.history = []

    def train_step(self, x, y):
        logits = self.model(x)
        loss = F.cross_entropy(logits, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        acc = (logits.argmax(1) == y).float().mean().item()
        return {"loss": loss.item(), "acc": acc}

    def fit(self, loader, epochs=2):
        for epoch in range(epochs):
            for x, y in loader:
                logs = self.train_step(x, y)
                logs["epoch"] = epoch
                self.history.append(logs)
        return self.history


if __name__ == "__main__":
    t = Trainer(nn.Linear(6, 3))
    print(t.fit([(torch.randn(4, 6), torch.randint(0, 3, (4,))) for _ in range(3)])[-1])
