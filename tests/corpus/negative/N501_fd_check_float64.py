# source: https://cs231n.github.io/neural-networks-3/#gradcheck
# family: E
# negative: finite-difference gradient check done in float64 with a centred difference and h=1e-6, compared with a relative-error tolerance
# mimics: hand-written numerical gradient check perturbing a tensor by a small eps
# expect: no finding

import torch


def numerical_grad(f, x, h=1e-6):
    grad = torch.zeros_like(x)
    for i in range(x.numel()):
        xp, xm = x.clone(), x.clone()
        xp.view(-1)[i] += h
        xm.view(-1)[i] -= h
        grad.view(-1)[i] = (f(xp) - f(xm)) / (2 * h)
    return grad


def layer(x):
    return (torch.nn.functional.gelu(x) * x.sin()).sum()


x = torch.randn(6, 5, dtype=torch.float64)
x_req = x.clone().requires_grad_(True)
layer(x_req).backward()
num = numerical_grad(layer, x)
rel_err = (num - x_req.grad).norm() / (num + x_req.grad).norm()
assert rel_err < 1e-7, rel_err
