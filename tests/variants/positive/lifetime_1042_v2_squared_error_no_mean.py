# source: variant of 1042_racnn_rank_loss_vector_backward.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: a hand-written squared error (pred - y) ** 2 from a helper is backpropagated without .mean()
# expect: line 22 — backward() on an elementwise squared-error tensor
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)

import torch
import torch.nn as nn


def squared_error(pred, target):
    return (pred - target) ** 2


def train(model, loader, lr=0.01):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for x, y in loader:
        optimizer.zero_grad()
        loss = squared_error(model(x), y)
        loss.backward()
        optimizer.step()


train(nn.Linear(3, 1), [(torch.randn(5, 3), torch.randn(5, 1)) for _ in range(2)])
