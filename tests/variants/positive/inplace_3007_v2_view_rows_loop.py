# source: variant of 3007_leaf_view_imul.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: a row view of a requires-grad leaf, obtained with .view() then indexing, is modified with flat[i] -= 1 in a loop
# expect: line 13 — flat[i] -= 1 on a view of a requires-grad leaf
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import torch

theta = torch.randn(2, 8, requires_grad=True)
flat = theta.view(-1, 4)
for i in range(flat.shape[0]):
    flat[i] -= 1
theta.sum().backward()
