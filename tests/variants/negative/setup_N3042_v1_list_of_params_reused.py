# source: variant of 3042_hypernet_filter_iterator_exhausted.py
# framework: torch
# family: A
# kind: params-not-in-optimizer
# pitfall: none — the filtered parameters are materialised with list(...) once, so rebuilding the optimizer reuses them
# checked: ran, correct (rebuilt optimizer has all params)
import torch
import torch.nn as nn


class Solver:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.lr = lr
        self.params = list(filter(lambda p: p.requires_grad, model.parameters()))
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
    print(len(s.optimizer.param_groups[0]["params"]))
