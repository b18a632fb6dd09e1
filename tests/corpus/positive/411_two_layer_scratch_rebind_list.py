# source: synthetic
# family: D
# pitfall: from-scratch two-layer net updates its parameter list with a comprehension `params = [p - lr * p.grad for p in params]`
# expect: line 23 — outside no_grad the comprehension builds graph nodes: the new params are non-leaves, so p.grad is None on the next iteration (TypeError)

import torch


def forward(params, x):
    w1, b1, w2, b2 = params
    return torch.relu(x @ w1 + b1) @ w2 + b2


params = [torch.randn(4, 16) * 0.5, torch.zeros(16), torch.randn(16, 1) * 0.5, torch.zeros(1)]
params = [p.requires_grad_() for p in params]
x = torch.randn(128, 4)
y = (x ** 2).sum(dim=1, keepdim=True)
lr = 1e-2

for step in range(500):
    loss = ((forward(params, x) - y) ** 2).mean()
    loss.backward()
    params = [p - lr * p.grad for p in params]
