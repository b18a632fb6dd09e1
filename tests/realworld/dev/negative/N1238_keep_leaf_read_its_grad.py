# source: https://github.com/pytorch/pytorch/issues/2730
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: the answer's version: the leaf _x keeps requires_grad=True, the CUDA copy x is used in the computation, and the gradient is read from the leaf (_x.grad)
# mimics: positive/1238_cuda_copy_of_leaf_grad_none.py
# expect: no finding
# checked: parse only (needs CUDA)

import torch
from torch.autograd import Variable

_x = Variable(torch.ones(10), requires_grad=True)
x = _x.cuda()
y = x * Variable(torch.linspace(1, 10, 10), requires_grad=False).cuda()
y.backward(torch.ones(10).cuda())
print(_x.grad)
