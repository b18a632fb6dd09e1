# source: https://github.com/pytorch/pytorch/issues/1620
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: the thread's working path: nn.LogSoftmax feeds NLLLoss (only loss_lsm is backpropagated)
# mimics: positive/1026_pointer_log_of_softmax_module.py
# expect: no finding
# checked: ran, no error

import torch
from torch import nn
from torch import optim

sm = nn.Softmax(dim=1)
lsm = nn.LogSoftmax(dim=1)

crit = nn.NLLLoss()
target = torch.LongTensor([2])

data = torch.FloatTensor([[0, 50, -50]])
data = torch.autograd.Variable(data, requires_grad=True)

num_loop = 1000
nan_count = 0
for i in range(num_loop):
    model = nn.Linear(3, 3, bias=False)
    optimizer = optim.SGD(model.parameters(), lr=0.01)
    optimizer.zero_grad()

    loss_lsm = crit(lsm(model(data)), target)

    # When I use nn.LogSoftmax() class, all gradients are calculated correctly.
    loss_lsm.backward()
    if torch.isnan(model.weight.grad).any():
        nan_count += 1
print(nan_count, "of", num_loop)
