# source: variant of 3005_leaf_index_copy.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: a requires-grad leaf made by torch.zeros(..., requires_grad=True) is written with scatter_ outside no_grad
# expect: line 12 — c.scatter_(...) in-place on a requires-grad leaf
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch

c = torch.zeros(4, 5, requires_grad=True)
idx = torch.tensor([[0], [2], [1], [4]])
c.scatter_(1, idx, 1.0)
(c * 2).sum().backward()
