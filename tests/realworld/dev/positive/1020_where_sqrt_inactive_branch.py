# source: https://github.com/pytorch/pytorch/issues/187297
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: torch.where selects the identity branch for negative inputs, but the unselected torch.sqrt(xt) branch is still differentiated and its NaN gradient leaks into xt.grad
# expect: line 13 — both branches of torch.where are differentiated; sqrt of the negative entries gives NaN gradients (mask the input before sqrt)
# checked: ran, reproduces (grad is [nan, nan])

import torch

xt = torch.tensor([-1.0, -4.0], dtype=torch.float32, requires_grad=True)

y = torch.where(xt > 0, torch.sqrt(xt), xt).sum()
y.backward()

actual = xt.grad
expected = torch.tensor([1.0, 1.0], dtype=torch.float32)

print("actual:")
print(actual)
print("expected:")
print(expected)
