# source: https://pytorch.org/tutorials/beginner/nn_tutorial.html
# family: D
# negative: weights are scaled first and only then marked with requires_grad_(), so they stay leaves; the update runs under no_grad
# mimics: torch.randn(...) * scale for parameters created by hand
# expect: no finding

import math
import torch
import torch.nn.functional as F

weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)
lr = 0.5

for i in range(100):
    xb, yb = torch.rand(64, 784), torch.randint(0, 10, (64,))
    loss = F.cross_entropy(xb @ weights + bias, yb)
    loss.backward()
    with torch.no_grad():
        weights -= weights.grad * lr
        bias -= bias.grad * lr
        weights.grad.zero_()
        bias.grad.zero_()
