# source: variant of 1204_examples_regression_param_add_leaf.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: parameters gathered in a list and updated in a loop with param.add_(param.grad, alpha=-lr) outside no_grad
# expect: line 29 — param.add_(param.grad, alpha=-lr) on a leaf that requires grad
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch


def init_params(n_in, n_hidden, n_out):
    W1 = torch.randn(n_in, n_hidden, requires_grad=True)
    W2 = torch.randn(n_hidden, n_out, requires_grad=True)
    return [W1, W2]


def forward(params, x):
    W1, W2 = params
    return torch.tanh(x @ W1) @ W2


params = init_params(4, 8, 1)
lr = 0.01
for it in range(5):
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    loss = (forward(params, x) - y).pow(2).mean()
    loss.backward()
    for param in params:
        param.add_(param.grad, alpha=-lr)
        param.grad = None
