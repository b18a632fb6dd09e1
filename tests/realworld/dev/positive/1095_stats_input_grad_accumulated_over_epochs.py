# source: https://stats.stackexchange.com/questions/491171/numerical-gradient-check-of-input-variable-in-neural-network
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: the analytical input gradient x.grad is read after a training loop that calls loss.backward() every epoch without clearing it, so it is the sum of ten gradients and the finite-difference check reports a relative error of ~0.9 for every step size
# expect: line 42 — loss.backward() accumulates into x.grad (and the weights' .grad) on every epoch; nothing zeroes it, so x.grad is not the gradient of the last loss
# checked: ran, reproduces (relative error ~0.9 for every eps)

import torch
from torch.optim import SGD
import torch.nn as nn
import numpy as np


# relative error
def relerr(g1, g2):
    g1 = g1.numpy()
    g2 = g2.numpy()
    return np.abs(g1 - g2) / np.maximum(np.abs(g1), np.abs(g2))


d = 4  # num features
n = 10  # num samples
k = 2  # num classes
nepochs = 10  # num epochs
m = nn.Linear(d, k)

opt = SGD(m.parameters(), lr=1e-3)
crit = nn.CrossEntropyLoss()

# Input samples
x = torch.randn(n, d)
x.requires_grad = True

# Targets
t = torch.LongTensor(np.random.randint(k, size=n))

# Train for a short while
for i in range(nepochs):
    y = m(x)
    loss = crit(y, t)
    loss.backward()
    if i < nepochs - 1:
        opt.step()

print(loss.item())

# Analytical gradient
grad_anal_x = x.grad

# Numerical approximation of input grad for several stepsizes eps
errors = []
for eps in [10 ** (-e) for e in range(0, 9)]:
    grad_num = torch.zeros_like(x)
    for j in range(grad_num.shape[0]):
        for i in range(grad_num.shape[1]):
            xp = x.clone()
            xp[j, i] += eps
            y = m(xp)
            lossp = crit(y, t).item()

            xn = x.clone()
            xn[j, i] -= eps
            y = m(xn)
            lossn = crit(y, t).item()

            grad_num[j, i] = (lossp - lossn) / (2 * eps)
    errors.append(relerr(grad_num, grad_anal_x).mean())
    print(f"{eps:.0e}", f"{errors[-1]:e}")
