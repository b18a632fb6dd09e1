# source: negative twin of a variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# negative: the step updates in place under no_grad (w -= lr * w.grad; b -= lr * b.grad)
# mimics: positive/1159_v1_tuple_unpack_w_b.py
# expect: no finding
# checked: ran, no error; w converges

import torch

X = torch.randn(20, 3)
Y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.3

w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)

lr = 0.05
for epoch in range(50):
    y_pred = X @ w + b
    loss = torch.mean((y_pred - Y) ** 2)
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
