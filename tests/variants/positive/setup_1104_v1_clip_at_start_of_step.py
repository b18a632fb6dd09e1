# source: variant of 1104_famo_clip_before_backward.py
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: Trainer.train_step clears grads, clips, and only then runs backward: the clip sees zero/None gradients and the fresh ones reach step() unclipped
# expect: line 21 — clip_grad_norm_ before loss.backward()
# checked: ran, reproduces (with SGD lr=1 the parameter update is far larger than max_norm: clipping had no effect on the step)
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, optimizer, max_norm=1.0):
        self.model = model
        self.optimizer = optimizer
        self.max_norm = max_norm

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        loss = ((self.model(x) - y) ** 2).mean()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.max_norm)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def train_epoch(self, loader):
        for x, y in loader:
            self.train_step(x, y)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(8, 2)
    before = model.weight.detach().clone()
    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=1.0), max_norm=1e-3)
    t.train_epoch([(torch.randn(16, 8) * 30, torch.randn(16, 2))])
    print("update norm:", (model.weight - before).norm().item(), "(<=1e-3 if clipped after backward)")
