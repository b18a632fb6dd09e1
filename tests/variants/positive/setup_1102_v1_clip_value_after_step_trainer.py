# source: variant of 1102_graphstorm_clip_after_step.py
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: train_epoch clips with clip_grad_value_ after self.optimizer.step(): the update already used the unclipped gradients
# expect: line 27 — clip_grad_value_ after the step
# checked: ran, reproduces (with SGD lr=1 the parameter update is far larger than max_norm: clipping had no effect on the step)
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_value_


class Trainer:
    def __init__(self, model, optimizer, clip_value=None):
        self.model = model
        self.optimizer = optimizer
        self.clip_value = clip_value

    def train_epoch(self, loader):
        self.model.train()
        for x, y in loader:
            self.optimizer.zero_grad()
            loss = nn.functional.cross_entropy(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            if self.clip_value:
                clip_grad_value_(self.model.parameters(), self.clip_value)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(16, 4)
    before = model.weight.detach().clone()
    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=1.0), clip_value=1e-4)
    t.train_epoch([(torch.randn(32, 16) * 50, torch.randint(0, 4, (32,)))])
    print("max |update|:", (model.weight - before).abs().max().item(), "(<=1e-4 if clipped first)")
