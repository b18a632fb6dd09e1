# source: variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# pitfall: a two-layer network's parameters are kept in a list and updated with params = [p - lr * p.grad for p in params] under torch.no_grad(); the list now holds constants, so the next backward() has no leaf that requires grad
# expect: line 32 — the comprehension under no_grad replaces every leaf parameter by a constant; update in place (for p in params: p -= lr * p.grad)
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn, on the second iteration)

import torch

torch.manual_seed(0)
X = torch.randn(32, 4)
y = torch.randn(32, 1)

W1 = torch.randn(4, 8, requires_grad=True)
b1 = torch.zeros(8, requires_grad=True)
W2 = torch.randn(8, 1, requires_grad=True)
b2 = torch.zeros(1, requires_grad=True)
params = [W1, b1, W2, b2]


def model(x, params):
    W1, b1, W2, b2 = params
    return torch.tanh(x @ W1 + b1) @ W2 + b2


lr = 1e-2
for it in range(10):
    loss = ((model(X, params) - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        params = [p - lr * p.grad for p in params]
    print(it, loss.item())
