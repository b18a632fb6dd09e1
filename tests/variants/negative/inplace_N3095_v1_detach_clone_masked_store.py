# source: variant of 3095_detach_alias_zero_on_sigmoid_output.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — detach().clone() before editing
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn

lin = nn.Linear(3, 3)
out = torch.tanh(lin(torch.randn(2, 3)))
d = out.detach().clone()
d[d.abs() < 0.1] = 0.0
out.sum().backward()
