# source: https://pytorch.org/tutorials/beginner/nn_tutorial.html
# family: D
# pitfall: hand-written logistic regression initialises weights as torch.randn(..., requires_grad=True) * 0.01 (the scaling is recorded by autograd)
# expect: line 9 — the scaled tensor is a non-leaf: after backward weights.grad is None and the manual update fails (scale first, then call requires_grad_())

import torch
import torch.nn.functional as F

weights = torch.randn(784, 10, requires_grad=True) * 0.01
bias = torch.zeros(10, requires_grad=True)
lr = 0.5

for epoch in range(2):
    for i in range(100):
        xb, yb = torch.rand(64, 784), torch.randint(0, 10, (64,))
        loss = F.cross_entropy(xb @ weights + bias, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
