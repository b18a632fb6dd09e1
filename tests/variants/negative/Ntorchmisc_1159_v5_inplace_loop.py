# source: negative twin of a variant of 1159_linreg_manual_update_rebinds_w.py
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# negative: each parameter is updated in place under no_grad and its gradient cleared
# mimics: positive/1159_v5_param_list_comprehension.py
# expect: no finding
# checked: ran, no error; loss decreases

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
        for p in params:
            p -= lr * p.grad
            p.grad = None
    print(it, loss.item())
