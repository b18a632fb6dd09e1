# source: variant of 3070_reassign_a_cuda_grad_none.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: none — converted first, requires_grad_() on the result (leaf), class spelling
# checked: ran, correct (self.delta.grad populated)
import numpy as np
import torch
import torch.nn as nn


class InputOptimizer:
    def __init__(self, model, init, lr=0.1):
        self.model = model
        self.lr = lr
        self.delta = torch.from_numpy(init).float().requires_grad_(True)

    def step(self, target):
        out = self.model(self.delta)
        loss = nn.functional.mse_loss(out, target)
        loss.backward()
        with torch.no_grad():
            self.delta -= self.lr * self.delta.grad
        self.delta.grad.zero_()
        return loss.item()


if __name__ == "__main__":
    model = nn.Linear(4, 2)
    opt = InputOptimizer(model, np.zeros((1, 4)))
    print(opt.step(torch.ones(1, 2)))
