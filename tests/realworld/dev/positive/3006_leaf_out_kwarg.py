# source: https://discuss.pytorch.org/t/inplace-operation-changes-is-leaf-attribute/120297
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: `torch.add(c, 1, out=c)` writes the result into the requires-grad leaf `c` through the out= argument; out= functions do not support autograd when an argument requires grad.
# expect: line 13 — `out=c` writes into a requires-grad leaf
# checked: ran (torch 2.13 CPU), reproduces (RuntimeError: add(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.)
import torch

c = torch.randn(10, 3, 2, 32, requires_grad=True)
print(c.is_leaf)
# operation 2
torch.add(c, 1, out=c) # RuntimeError: add(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.
