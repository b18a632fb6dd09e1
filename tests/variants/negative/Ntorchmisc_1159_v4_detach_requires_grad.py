# source: negative twin of a variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# negative: the new tensor is made a fresh leaf again: w = (w - lr * dw).detach().requires_grad_()
# mimics: positive/1159_v4_grad_variable_then_rebind.py
# expect: no finding
# checked: ran, no error; loss decreases

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
    w = (w - lr * dw).detach().requires_grad_()
    print(epoch, loss.item())
