# source: https://github.com/pytorch/pytorch/issues/156212
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: torch.where is used as an overflow guard around torch.exp(x); the unselected exp of a NaN/huge entry still gets a gradient, which turns into NaN
# expect: line 21 — torch.exp(x) is evaluated and differentiated for every entry, including the ones the condition rejects, so x.grad gets NaN
# checked: ran, reproduces (grad has nan)

import torch

# some arbitrary max value for sth similar to torch.clamp(x, max=x_th)
x_th = torch.tensor(10)

# nan value, just for this experiment
x = torch.tensor([1.0, float('nan'), 1e10], requires_grad=True)

# some arbitrary secondary path, for showcase
b = torch.tensor(1)

# this never selects nan and protects against overflows
x_out = torch.where(x <= x_th, torch.exp(x), b)

print(x_out)

l = x_out.sum()
l.backward()

print(x.grad)
