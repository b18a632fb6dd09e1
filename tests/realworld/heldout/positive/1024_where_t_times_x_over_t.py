# source: https://github.com/pytorch/pytorch/issues/36923
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: y = t * (x / t) is NaN for t = 0 and torch.where never selects it, but backward sends NaN through the untaken path into x.grad
# expect: line 14 — the untaken branch y (0 * (x / 0)) is still differentiated; its NaN gradient reaches x
# checked: ran, reproduces (grad is nan)

import torch

t = 0
x = torch.ones(()).requires_grad_()
y = t * (x / t)  # just an example; anything that produces nan's works
z = torch.where(x >= t, x, y)
z.backward()

# the forward pass works fine (the `nan`'s in `y` do not affect z)
print(z)

# but the backward pass backprops the `nan`'s from y into x, even though the y path is never taken in torch.where
print(x.grad)
