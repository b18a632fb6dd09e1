# source: variant of 3008_leaf_alias_imul.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: the requires-grad leaf is passed to a helper whose argument is scaled in place with *=
# expect: line 12 — t *= scale on the helper's argument, which is the requires-grad leaf
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch


def rescale(t, scale):
    t *= scale
    return t


foo = torch.ones(20, 20, requires_grad=True)
bar = rescale(foo, 10)
bar.sum().backward()
