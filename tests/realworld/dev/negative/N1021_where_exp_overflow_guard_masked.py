# source: https://github.com/pytorch/pytorch/issues/156212
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: the thread's working version: exp is applied only to the entries selected by the mask (x[x <= x_th]), so the rejected entries never enter the differentiated branch
# mimics: positive/1021_where_exp_overflow_guard.py
# expect: no finding
# checked: ran, no error

import torch

# some arbitrary max value for sth similar to torch.clamp(x, max=x_th)
x_th = torch.tensor(10)

x = torch.tensor([1.0, 5.0, 1e10], requires_grad=True)

# some arbitrary secondary path, for showcase
b = torch.tensor(1)

# this never selects nan and protects against overflows
x_out = torch.ones_like(x)
x_out[x <= x_th] = torch.exp(x[x <= x_th])
x_out[~(x < x_th)] = b

print(x_out)

l = x_out.sum()
l.backward()

print(x.grad)
