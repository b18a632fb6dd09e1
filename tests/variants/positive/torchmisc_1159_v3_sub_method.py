# source: variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# pitfall: the manual step is written with the tensor method w = w.sub(lr * w.grad) inside torch.no_grad(); the name w now refers to a fresh tensor without requires_grad, so w.grad.zero_() fails (w.sub_ would update in place)
# expect: line 29 — `w = w.sub(lr * w.grad)` under no_grad replaces the leaf by a constant: w.grad is None afterwards
# checked: ran, reproduces (AttributeError: 'NoneType' object has no attribute 'zero_')

import torch

X = torch.tensor([1, 2, 3, 4], dtype=torch.float32)
Y = torch.tensor([2, 4, 6, 8], dtype=torch.float32)
w = torch.tensor(0.0, dtype=torch.float32, requires_grad=True)


def forward(x):
    return w * x


def mse(y, y_pred):
    return ((y_pred - y) ** 2).mean()


learning_rate = 0.01
for epoch in range(100):
    l = mse(Y, forward(X))
    l.backward()
    with torch.no_grad():
        w = w.sub(learning_rate * w.grad)
    w.grad.zero_()
