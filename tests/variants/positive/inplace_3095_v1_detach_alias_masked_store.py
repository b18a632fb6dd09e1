# source: variant of 3095_detach_alias_zero_on_sigmoid_output.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: a .detach() alias of the tanh output is edited in place with fill_; it shares the version counter of the saved tensor
# expect: line 14 — d.fill_(0) on a detach() alias of the saved tanh output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2, 3]], which is output 0 of Tanh, is at version 1; expected version 0)
import torch
import torch.nn as nn

lin = nn.Linear(3, 3)
out = torch.tanh(lin(torch.randn(2, 3)))
d = out.detach()
d[d.abs() < 0.1] = 0.0
out.sum().backward()
