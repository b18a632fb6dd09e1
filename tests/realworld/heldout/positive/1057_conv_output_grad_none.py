# source: https://github.com/pytorch/pytorch/issues/2384
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: after loss.backward() the user reads output.grad of a convolution's output to see the gradient flowing between layers; only leaves keep .grad, so it is None
# expect: line 23 — output is a non-leaf; its .grad is not retained unless output.retain_grad() is called before backward
# checked: ran, reproduces (prints None)

import torch
from torch.autograd import Variable

input = Variable(torch.randn(20, 3, 28, 28), requires_grad=True)
m = torch.nn.Conv2d(3, 16, 5)
output = m(input)

loss = torch.sum(output)  # define loss to perform backprop
m.zero_grad()
loss.backward()

print(type(input))
print(input.grad.size())
print(type(output))
print(output.grad)
