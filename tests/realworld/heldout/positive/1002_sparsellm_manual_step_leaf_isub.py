# source: https://github.com/BaiTheBest/SparseLLM/issues/13
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: a hand-written gradient step s_batch -= lr * s_batch.grad on a leaf tensor that requires grad, outside torch.no_grad()
# expect: line 22 — in-place subtraction on a leaf that requires grad while grad mode is on raises RuntimeError
# checked: ran, reproduces

import torch

s = torch.zeros(16, 64, dtype=torch.float16)
W = torch.randn(64, 64)
x = torch.randn(8, 64)
target = torch.randn(8, 64)
s_learning_rate = 0.01

for chunk in [slice(0, 16)]:
    s_batch = s[:, chunk].float().clone().requires_grad_(True)
    for _ in range(3):
        loss_s = ((x @ W) * s_batch.sum(0).repeat(4) - target).pow(2).mean()
        loss_s.backward()
        s_batch -= s_learning_rate * s_batch.grad
        s_batch.grad.zero_()
    s[:, chunk] = s_batch.detach().to(dtype=torch.float16)
