# source: variant of 3086_softplus_column_recurrence.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: a recurrence written column by column into a buffer: h[:, t] = tanh(h[:, t-1] @ W + x[:, t]); the matmul saved the view h[:, t-1]
# expect: line 15 — h[:, t] = torch.tanh(h[:, t - 1] @ W + ...) index store after matmul saved a view of h
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2, 3]], which is output 0 of AsStrided, is at version 3; expected vers)
import torch

T, B, D = 4, 2, 3
W = torch.randn(D, D, requires_grad=True)
x = torch.randn(B, T, D)
h = torch.zeros(B, T, D)
for t in range(1, T):
    h[:, t] = torch.tanh(h[:, t - 1] @ W + x[:, t])
h.sum().backward()
