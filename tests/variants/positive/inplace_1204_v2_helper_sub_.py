# source: variant of 1204_examples_regression_param_add_leaf.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: manual SGD helper receives the model as a parameter and calls p.sub_(lr * p.grad) on every parameter with grad mode on
# expect: line 15 — p.sub_(lr * p.grad) in-place on a parameter outside no_grad
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn


def sgd_step(model, lr):
    for name, p in model.named_parameters():
        if p.grad is not None:
            p.sub_(lr * p.grad)


def make_model():
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))


model = make_model()
loss_fn = nn.MSELoss()
for epoch in range(2):
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    model.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    sgd_step(model, 0.01)
