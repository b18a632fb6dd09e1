# source: variant of 3009_conv_weight_index_assign.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: the weight is aliased into a local (w = m.weight) and entries are assigned through the alias
# expect: line 13 — w[0, 0, 0, 0] = 1 through an alias of the parameter
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn

m = nn.Conv2d(1, 1, 2, stride=1, bias=False)
w = m.weight
w[0, 0, 0, 0] = 1
w[0, 0, 0, 1] = 2
w[0, 0, 1, 0] = 3
w[0, 0, 1, 1] = 4
print(m(torch.ones(1, 1, 2, 2)))
