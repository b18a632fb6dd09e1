# source: variant of 3007_leaf_view_imul.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: the view of the requires-grad leaf is taken with .t() / .transpose() and modified with mul_
# expect: line 12 — wt.mul_(10) on a transpose view of a requires-grad leaf
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import torch

w = torch.ones(4, 3, requires_grad=True)
wt = w.t()
wt.mul_(10)
wt.sum().backward()
