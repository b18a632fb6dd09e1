# source: https://github.com/pytorch/pytorch/issues/38209
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# negative: argmax only picks which entries to index; the loss is the selected values of y themselves, which stay differentiable (the thread's CUDA assert was a framework bug, fixed since)
# mimics: argmax on the loss path
# expect: no finding
# checked: ran, no error

import torch

x = torch.randn((10, 2))
x.requires_grad = True
y = x*x
l = y.argmax(-1)
z = y[torch.arange(y.shape[0]), l]
z.sum().backward()
