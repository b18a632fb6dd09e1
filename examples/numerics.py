"""Numerics: a NaN-gradient trap, an unprotected square root, and a float32 gradcheck."""

import torch
from torch.autograd import gradcheck


def safe_log_ratio(a, b):
    ratio = a / b
    return torch.where(ratio > 0, torch.log(ratio), torch.zeros_like(ratio))  # NaN gradient (GL407)


def pairwise_distance(u, v):
    return torch.sqrt(((u - v) ** 2).sum(dim=-1))  # infinite slope at 0 (GL408)


a = torch.randn(16, requires_grad=True)
b = torch.rand(16) + 0.1
u = torch.randn(8, 4, requires_grad=True)
loss = safe_log_ratio(a, b).sum() + pairwise_distance(u, u.detach().roll(1, 0)).mean()
loss.backward()

x = torch.randn(10, requires_grad=True)
print(gradcheck(torch.tanh, (x,)))  # float32 inputs (GL402)
