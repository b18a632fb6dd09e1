# source: variant of 1022_where_log2_piecewise.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: log branch computed on its own line and replaced by indexing assignment y[x <= 0] = 0; the index-put's zero cotangent times log' (inf at 0) is NaN
# expect: line 12 — y = torch.log(x) then y[x <= 0] = 0 at x = 0
# checked: ran (torch 2.13 CPU), reproduces (x.grad = [nan, 0.5, 0.333])

import torch

x = torch.tensor([0.0, 2.0, 3.0], requires_grad=True)
y = torch.log(x)
y[x <= 0] = 0.0
y.sum().backward()
print(x.grad)
