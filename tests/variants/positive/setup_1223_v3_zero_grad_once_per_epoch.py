# source: variant of 1223_tennis_court_trainer_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: self.optimizer.zero_grad() is called once in on_epoch_start(), a different method than the per-batch backward/step, so within an epoch every step applies the sum of all earlier batches' gradients
# expect: line 26 — backward in the batch loop accumulates: gradients are cleared only once per epoch (on_epoch_start), not per step
# checked: ran, reproduces (post-accumulate hook: gradient seen by the 2nd step == 2x the single-batch gradient)
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, optimizer, criterion):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion

    def on_epoch_start(self):
        self.model.train()
        self.optimizer.zero_grad()

    def train_epoch(self, loader):
        self.on_epoch_start()
        for step, (x, y) in enumerate(loader):
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()

    def fit(self, loader, epochs):
        for _ in range(epochs):
            self.train_epoch(loader)


if __name__ == "__main__":
    model = nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    seen = []
    model.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    b = (torch.randn(4, 8), torch.randn(4, 2))
    Trainer(model, opt, nn.MSELoss()).fit([b, b], 1)
    print("accumulated:", torch.allclose(seen[1], 2 * seen[0]))
