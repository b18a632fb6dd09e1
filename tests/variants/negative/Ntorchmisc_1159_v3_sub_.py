# source: negative twin of a variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# negative: the in-place method w.sub_(learning_rate * w.grad) under no_grad
# mimics: positive/1159_v3_sub_method.py
# expect: no finding
# checked: ran, no error; w converges to 2

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
        w.sub_(learning_rate * w.grad)
    w.grad.zero_()
