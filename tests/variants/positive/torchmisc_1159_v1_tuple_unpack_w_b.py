# source: variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# pitfall: a hand-written gradient-descent step for weight and bias rebinds both names in one tuple assignment under torch.no_grad(); w and b now refer to fresh tensors without requires_grad, so w.grad.zero_() fails and later backward calls lose the parameters
# expect: line 23 — `w, b = w - lr * w.grad, b - lr * b.grad` under no_grad replaces the leaves by constants (w.grad is None afterwards); update in place: w -= lr * w.grad
# checked: ran, reproduces (AttributeError: 'NoneType' object has no attribute 'zero_')

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
        w, b = w - lr * w.grad, b - lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
