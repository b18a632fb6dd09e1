# source: https://www.yongfengli.tk/2018/04/13/inplace-operation-in-pytorch.html
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: inside the loop b[i] = b[i] + 1 writes into b in place after b was already used by torch.mm in the previous iteration (mm saves its input for backward)
# expect: line 24 — the indexed assignment modifies b, which an earlier torch.mm(self.param, b) saved for backward
# checked: ran, reproduces ("modified by an inplace operation")

import torch
import torch.nn as nn
from torch.autograd import Variable


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.param = nn.Parameter(torch.randn(10, 10))

    def forward(self, a):
        b = Variable(torch.Tensor(10, 1))
        y = 0
        b = torch.mm(self.param, a)
        for i in range(10):
            b[i] = b[i] + 1
            y = y + torch.mm(self.param, b)
        return y


net = Net()
out = net(torch.randn(10, 1))
out.sum().backward()
