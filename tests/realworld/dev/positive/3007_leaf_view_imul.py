# source: https://github.com/pytorch/pytorch/issues/39150
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: `bar` is a slice (view) of the requires-grad leaf `foo`; `bar *= 10` modifies the leaf through the view (old versions failed later with "leaf variable has been moved into the graph interior").
# expect: line 12 — `bar *= 10` in-place on a view of a requires-grad leaf
# checked: ran (torch 2.13 CPU), reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import torch

foo = torch.ones(20, 20).requires_grad_()
bar = foo[10:, 10:]
bar *= 10
bar.sum().backward()
