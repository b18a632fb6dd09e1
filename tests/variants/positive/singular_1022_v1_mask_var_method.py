# source: variant of 1022_where_log2_piecewise.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: piecewise log with the mask kept in a variable and the method spelling x.log2(); log2(0) in the untaken branch makes the gradient NaN
# expect: line 13 — torch.where(big, x1.log2(), 2 * x1) at x1 = 0
# checked: ran (torch 2.13 CPU), reproduces (x1.grad = [nan, 2.0, 0.48])

import torch

x1 = torch.tensor([0.0, 2.0, 3.0], requires_grad=True)
big = x1 > 2
y1 = torch.where(big, x1.log2(), 2 * x1)
y1.sum().backward()
print(x1.grad)
