# source: https://github.com/pytorch/pytorch/issues/2384
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: the answer's fix: output.retain_grad() is called before loss.backward(), so output.grad is populated
# mimics: positive/1057_conv_output_grad_none.py
# expect: no finding
# checked: ran, no error

import torch
from torch.autograd import Variable

input = Variable(torch.randn(20, 3, 28, 28), requires_grad=True)
m = torch.nn.Conv2d(3, 16, 5)
output = m(input)

output.retain_grad()
loss = torch.sum(output)  # define loss to perform backprop
m.zero_grad()
loss.backward()

print(type(input))
print(input.grad.size())
print(type(output))
print(output.grad)
