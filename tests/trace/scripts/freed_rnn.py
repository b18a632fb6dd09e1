import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNNCell(4, 8)
head = nn.Linear(8, 1)
opt = torch.optim.SGD(list(rnn.parameters()) + list(head.parameters()), lr=0.01)
h = torch.zeros(2, 8)
for step in range(20):
    x, y = torch.randn(2, 4), torch.randn(2, 1)
    opt.zero_grad()
    h = rnn(x, h)  # expect: GL201
    loss = ((head(h) - y) ** 2).mean()
    loss.backward()  # also: GL201
    opt.step()
