# source: variant of 3070_reassign_a_cuda_grad_none.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: an input-optimisation class sets requires_grad_ on a float64 tensor from numpy and then calls .float(); self.delta is the non-leaf copy, so self.delta.grad is None after backward
# expect: line 24 — self.delta.grad is None (self.delta is the non-leaf result of .float())
# checked: ran, reproduces (.grad is None: TypeError/AttributeError on NoneType)
import numpy as np
import torch
import torch.nn as nn


class InputOptimizer:
    def __init__(self, model, init, lr=0.1):
        self.model = model
        self.lr = lr
        self.delta = torch.from_numpy(init).requires_grad_(True).float()

    def step(self, target):
        out = self.model(self.delta)
        loss = nn.functional.mse_loss(out, target)
        loss.backward()
        with torch.no_grad():
            self.delta -= self.lr * self.delta.grad
        return loss.item()


if __name__ == "__main__":
    model = nn.Linear(4, 2)
    opt = InputOptimizer(model, np.zeros((1, 4)))
    opt.step(torch.ones(1, 2))
