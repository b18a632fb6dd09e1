# source: https://discuss.pytorch.org/t/inplace-operation-changes-is-leaf-attribute/120297
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: the thread's own non-failing variant ("operation 5"): the in-place update goes through `c.detach()`, which autograd does not track; no error expected.
# expect: no finding
# checked: ran (torch 2.13 CPU), runs clean, exit 0
import torch

c = torch.randn(10, 3, 2, 32, requires_grad=True)
print(c.is_leaf)
# operation 5
d = c.detach()
d += 1 # no error, and still leaf
print(c.is_leaf)
