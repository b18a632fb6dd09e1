# source: variant of 1204_examples_regression_param_add_leaf.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: hand-written optimizer class: step() walks self.params and does p.data-free p.add_(-lr * p.grad); grad mode is on when step() runs
# expect: line 25 — p.add_(-self.lr * p.grad) inside a custom optimizer's step() without no_grad
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn


class MySGD:
    def __init__(self, params, lr=0.01):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        for p in self.params:
            p.grad = None

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
