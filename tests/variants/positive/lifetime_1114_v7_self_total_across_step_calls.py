# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the running total lives on self and is updated inside training_step (self.total_loss += loss), which the fit loop calls once per batch; each call adds another batch's graph to the attribute
# expect: line 26 — self.total_loss += loss keeps every step's graph alive across calls; add loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every step graph stays alive)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        self.total_loss = 0.0
        self.steps = 0

    def training_step(self, x, y):
        self.optimizer.zero_grad()
        loss = F.mse_loss(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        self.total_loss += loss
        self.steps += 1

    def fit(self, loader, epochs=2):
        for epoch in range(epochs):
            self.total_loss, self.steps = 0.0, 0
            for x, y in loader:
                self.training_step(x, y)
            print(epoch, self.total_loss / self.steps)


if __name__ == "__main__":
    t = Trainer(nn.Linear(4, 1))
    t.fit([(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)])
    pass
