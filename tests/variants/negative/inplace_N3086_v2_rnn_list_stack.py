# source: variant of 3086_softplus_column_recurrence.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — recurrence collected in a list and stacked
# checked: ran, no error (exit 0)
import torch

T, B, D = 4, 2, 3
W = torch.randn(D, D, requires_grad=True)
x = torch.randn(B, T, D)
hs = [torch.zeros(B, D)]
for t in range(1, T):
    hs.append(torch.tanh(hs[-1] @ W + x[:, t]))
h = torch.stack(hs, dim=1)
h.sum().backward()
