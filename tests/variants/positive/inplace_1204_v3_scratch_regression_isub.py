# source: variant of 1204_examples_regression_param_add_leaf.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: from-scratch linear regression: weights created with requires_grad=True and updated with w -= lr * w.grad in the training loop without torch.no_grad()
# expect: line 21 — w -= lr * w.grad on a user-created leaf that requires grad
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch

X = torch.randn(100, 3)
y = X @ torch.tensor([[2.0], [-1.0], [0.5]]) + 0.3

w = torch.randn(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.05

for epoch in range(10):
    pred = X @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    w -= lr * w.grad
    b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
