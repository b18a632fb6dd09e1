# source: variant of 3009_conv_weight_index_assign.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — weight.data alias written by index
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn

m = nn.Conv2d(1, 1, 2, stride=1, bias=False)
w = m.weight.data
w[0, 0, 0, 0] = 1
w[0, 0, 0, 1] = 2
w[0, 0, 1, 0] = 3
w[0, 0, 1, 1] = 4
print(m(torch.ones(1, 1, 2, 2)))
