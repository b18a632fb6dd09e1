# source: https://cs231n.github.io/neural-networks-3/#gradcheck
# family: E
# pitfall: numerical-gradient helper perturbs a float32 tensor by h=1e-6 with a one-sided difference to validate a custom layer
# expect: line 14 — a 1e-6 step on float32 values (eps ~ 1.2e-7 relative) is drowned in rounding error: the "numerical gradient" is noise; use float64 and a centred difference

import torch


def numerical_grad(f, x, h=1e-6):
    grad = torch.zeros_like(x)
    fx = f(x)
    for i in range(x.numel()):
        x_plus = x.clone()
        x_plus.view(-1)[i] += h
        grad.view(-1)[i] = (f(x_plus) - fx) / h
    return grad


def layer(x):
    return (torch.nn.functional.gelu(x) * x.sin()).sum()


x = torch.randn(6, 5)
x_req = x.clone().requires_grad_(True)
layer(x_req).backward()
num = numerical_grad(layer, x)
rel_err = (num - x_req.grad).norm() / (num + x_req.grad).norm()
print("relative error", rel_err.item())
assert rel_err < 1e-4, "custom layer gradient looks wrong"
