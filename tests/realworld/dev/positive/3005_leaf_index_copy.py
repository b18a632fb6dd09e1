# source: https://discuss.pytorch.org/t/inplace-operation-changes-is-leaf-attribute/120297
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: `c` is a user-created leaf with requires_grad=True; `index_copy_` writes into it outside no_grad, which autograd forbids (same thread also tries `c += 1` and `c.add_(1)`).
# expect: line 13 — `c.index_copy_(...)` in-place write into a requires-grad leaf
# checked: ran (torch 2.13 CPU), reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch

c = torch.randn(10, 3, 2, 32, requires_grad=True)
print(c.is_leaf)
# operation 4
c.index_copy_(3, torch.tensor(10), torch.randn(10, 3, 2, 1)) # RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
