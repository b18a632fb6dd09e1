# source: variant of 1204_examples_regression_param_add_leaf.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — custom optimizer whose step() is decorated with @torch.no_grad()
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class MySGD:
    def __init__(self, params, lr=0.01):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for p in self.params:
            if p.grad is None:
                continue
            p.add_(-self.lr * p.grad)


model = nn.Linear(4, 2)
opt = MySGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    loss = model(torch.randn(5, 4)).pow(2).mean()
    loss.backward()
    opt.step()
