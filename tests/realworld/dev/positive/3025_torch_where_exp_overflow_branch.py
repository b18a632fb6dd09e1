# source: https://github.com/pytorch/pytorch/issues/68425
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: torch.where(a <= 0, torch.exp(a), 1 + a) at a = 100 selects 1 + a, but the unselected torch.exp(a) overflows to inf in float32 and its backward (0 * inf) makes a.grad NaN instead of 1.
# expect: line 11 — torch.where(a <= 0, torch.exp(a), 1 + a) with an overflowing unselected exp
# checked: ran (torch 2.13 CPU), reproduces: a.grad = nan
import torch

a = torch.tensor(100., requires_grad=True)
b = torch.where(a <= 0, torch.exp(a), 1 + a)
b.backward()

print(b)
print(a.grad)
