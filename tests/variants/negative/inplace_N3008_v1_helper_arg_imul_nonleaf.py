# source: variant of 3008_leaf_alias_imul.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — helper scales a non-leaf copy (foo * 1) in place
# checked: ran, no error (exit 0)
import torch


def rescale(t, scale):
    t *= scale
    return t


foo = torch.ones(20, 20, requires_grad=True)
bar = rescale(foo * 1.0, 10)
bar.sum().backward()
