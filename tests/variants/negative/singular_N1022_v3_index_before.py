# source: variant of 1022_where_log2_piecewise.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: select before the log: the log is applied only to the positive entries
# mimics: 1022_v3_index_assign.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

x = torch.tensor([0.0, 2.0, 3.0], requires_grad=True)
y = torch.zeros_like(x)
y[x > 0] = torch.log(x[x > 0])
y.sum().backward()
print(x.grad)
