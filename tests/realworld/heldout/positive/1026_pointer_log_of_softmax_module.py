# source: https://github.com/pytorch/pytorch/issues/1620
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: the NLL loss is taken on torch.log(nn.Softmax()(logits)); when the softmax underflows to 0 the log is -inf and the gradient becomes NaN, while nn.LogSoftmax stays finite
# expect: line 29 — log of a softmax output: probabilities that underflow to 0 give log = -inf and NaN gradients; use LogSoftmax / log_softmax
# checked: ran, reproduces (NaN gradients in 5 of 1000 random initialisations with the thread's input)

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

    loss_sm = crit(torch.log(sm(model(data))), target)
    loss_lsm = crit(lsm(model(data)), target)

    # When I use nn.LogSoftmax() class, all gradients are calculated correctly.
    # loss_lsm.backward()
    loss_sm.backward()
    if torch.isnan(model.weight.grad).any():
        nan_count += 1
print(nan_count, "of", num_loop)
