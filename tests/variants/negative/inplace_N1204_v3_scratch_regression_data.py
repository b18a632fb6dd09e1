# source: variant of 1204_examples_regression_param_add_leaf.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — from-scratch regression updated on .data
# checked: ran, no error (exit 0)
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
    w.data -= lr * w.grad
    b.data -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
