# source: variant of 1091_diffgrad_previous_grad_alias.py
# framework: torch
# family: D
# kind: grad-kept-without-clone
# pitfall: a trainer logs how much each parameter's gradient changed between steps and keeps self.last_grads[name] = param.grad; zero_grad(set_to_none=False) and the next backward rewrite that same buffer in place, so the logged change is always 0
# expect: line 27 — self.last_grads[name] keeps the live .grad buffer: store param.grad.detach().clone()
# checked: ran, reproduces (the logged gradient change is 0.0 at every step although the batches differ)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr=0.01):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.last_grads = {}

    def grad_change(self):
        total = 0.0
        for name, param in self.model.named_parameters():
            if param.grad is None:
                continue
            if name in self.last_grads:
                total += (param.grad - self.last_grads[name]).norm().item()
            self.last_grads[name] = param.grad
        return total

    def train_step(self, x, y):
        self.optimizer.zero_grad(set_to_none=False)
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        change = self.grad_change()
        self.optimizer.step()
        return loss.item(), change


trainer = Trainer(nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3)))
for _ in range(3):
    print(trainer.train_step(torch.randn(8, 6), torch.randint(0, 3, (8,))))
