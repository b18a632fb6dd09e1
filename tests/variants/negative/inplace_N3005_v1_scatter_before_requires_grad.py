# source: variant of 3005_leaf_index_copy.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — scatter_ into a plain tensor, requires_grad set afterwards
# checked: ran, no error (exit 0)
import torch

c = torch.zeros(4, 5)
idx = torch.tensor([[0], [2], [1], [4]])
c.scatter_(1, idx, 1.0)
c.requires_grad_()
(c * 2).sum().backward()
