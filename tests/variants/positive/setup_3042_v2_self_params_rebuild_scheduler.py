# source: variant of 3042_hypernet_filter_iterator_exhausted.py
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: a Trainer stores self.params = model.parameters() (a generator) and rebuilds the optimizer in a separate method when the lr is decayed; the rebuilt optimizer gets an empty list
# expect: line 21 — the rebuilt optimizer walks self.params, a generator exhausted by the first optimizer in __init__
# checked: ran, reproduces (ValueError: optimizer got an empty parameter list)
import torch
import torch.nn as nn


class Solver:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.lr = lr
        self.params = model.parameters()
        self.optimizer = torch.optim.SGD(self.params, lr=self.lr)

    def decay_lr(self, factor=0.1):
        self.lr *= factor
        self.optimizer = torch.optim.SGD(self.params, lr=self.lr)

    def train(self, loader, epochs=2):
        for epoch in range(epochs):
            for x, y in loader:
                self.optimizer.zero_grad()
                nn.functional.mse_loss(self.model(x), y).backward()
                self.optimizer.step()
            self.decay_lr()


if __name__ == "__main__":
    s = Solver(nn.Linear(4, 1))
    s.train([(torch.randn(2, 4), torch.randn(2, 1))])
