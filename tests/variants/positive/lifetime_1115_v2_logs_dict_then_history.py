# source: variant of 1115_packnet_outputs_list_with_loss.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: each step builds a logs dict holding the loss tensor and appends the dict to self.history; the stored losses keep every step's graph
# expect: line 34 — self.history.append(logs) keeps logs["loss"] (with its graph) for every step; store loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every step graph stays alive)

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
        return {"loss": loss, "acc": acc}

    def fit(self, loader, epochs=2):
        for epoch in range(epochs):
            for x, y in loader:
                logs = self.train_step(x, y)
                logs["epoch"] = epoch
                self.history.append(logs)
        return self.history


if __name__ == "__main__":
    t = Trainer(nn.Linear(6, 3))
    h = t.fit([(torch.randn(4, 6), torch.randint(0, 3, (4,))) for _ in range(3)])
    pass
