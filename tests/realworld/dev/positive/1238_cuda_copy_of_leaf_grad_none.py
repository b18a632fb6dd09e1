# source: https://github.com/pytorch/pytorch/issues/2730
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: x is created as a leaf with requires_grad=True and immediately moved with .cuda(); the name x now refers to the CUDA copy, a non-leaf whose .grad is never populated, so print(x.grad) shows None after backward
# expect: line 12 — Variable(..., requires_grad=True).cuda() keeps only the non-leaf copy; the answer keeps the leaf (_x) and reads _x.grad, or creates the tensor on the device directly
# checked: parse only (needs CUDA); the snippet verbatim

import torch
from torch.autograd import Variable

x = Variable(torch.ones(10), requires_grad=True).cuda()
y = x * Variable(torch.linspace(1, 10, 10), requires_grad=False).cuda()
y.backward(torch.ones(10).cuda())
print(x.grad)
