# source: variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# pitfall: the manual SGD step is factored into a helper that returns w - lr * w.grad computed under torch.no_grad(); the caller rebinds w to the returned constant, so w.grad is None on the next line and later backward calls lose the parameter
# expect: line 14 — the helper returns a new tensor made from the leaf under no_grad (the caller's `w = sgd_step(w, 0.01)` replaces the leaf by it; w.grad is None afterwards); update in place: param -= lr * param.grad
# checked: ran, reproduces (AttributeError: 'NoneType' object has no attribute 'zero_')

import torch


def sgd_step(param, lr):
    with torch.no_grad():
        return param - lr * param.grad


X = torch.tensor([1, 2, 3, 4], dtype=torch.float32)
Y = torch.tensor([2, 4, 6, 8], dtype=torch.float32)
w = torch.tensor(0.0, requires_grad=True)

for epoch in range(1, 101):
    l = ((w * X - Y) ** 2).mean()
    l.backward()
    w = sgd_step(w, 0.01)
    w.grad.zero_()
