# source: variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# pitfall: the gradient is first read into a variable (dw = w.grad) and the step w = w - lr * dw is done under torch.no_grad(); w now refers to a constant, so on the next epoch the loss has no leaf that requires grad and backward() raises
# expect: line 22 — `w = w - lr * dw` under no_grad replaces the leaf by a constant; the next backward() fails ("element 0 of tensors does not require grad")
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn, on the second epoch)

import torch

X = torch.randn(64, 5)
true_w = torch.randn(5)
Y = X @ true_w

w = torch.zeros(5, requires_grad=True)
lr = 0.1
for epoch in range(20):
    loss = ((X @ w - Y) ** 2).mean()
    loss.backward()
    dw = w.grad
    with torch.no_grad():
        w = w - lr * dw
    dw.zero_()
    print(epoch, loss.item())
