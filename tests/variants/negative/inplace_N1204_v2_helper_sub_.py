# source: variant of 1204_examples_regression_param_add_leaf.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — helper SGD step under with torch.no_grad()
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


def sgd_step(model, lr):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.grad is not None:
                p.sub_(lr * p.grad)


model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
loss_fn = nn.MSELoss()
for epoch in range(2):
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    model.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    sgd_step(model, 0.01)
