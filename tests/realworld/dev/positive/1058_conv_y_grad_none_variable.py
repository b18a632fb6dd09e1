# source: https://github.com/pytorch/pytorch/issues/2677
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: y = conv(x) reports requires_grad True, so the user expects y.grad after final.backward(), but y is an intermediate and its gradient is not stored
# expect: line 19 — y is not a leaf: y.grad stays None after backward (use y.retain_grad() or a hook)
# checked: ran, reproduces (prints None)

import torch
import torch.nn as nn
from torch.autograd import Variable

x = Variable(torch.rand(8, 1, 5, 5), requires_grad=True)
conv = nn.Conv2d(1, 1, 3)
y = conv(x)
final = torch.sum(y)
print('y.grad', y.grad)
final.backward()
print('y.grad', y.grad)
print('y.grad', y.requires_grad)
