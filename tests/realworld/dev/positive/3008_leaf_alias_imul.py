# source: https://github.com/pytorch/pytorch/issues/39150
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: `bar = foo` is only a second name for the requires-grad leaf `foo`, so `bar *= 10` is an in-place op on the leaf itself.
# expect: line 12 — `bar *= 10` in-place on an alias of a requires-grad leaf
# checked: ran (torch 2.13 CPU), reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import torch

foo = torch.ones(20, 20).requires_grad_()
bar = foo
bar *= 10
bar.sum().backward()
