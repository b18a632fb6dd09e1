# source: https://www.yongfengli.tk/2018/04/13/inplace-operation-in-pytorch.html
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the post's fix: the update is written out of place, b = b + bione with a one-hot bione, so the tensors saved by earlier mm calls are never modified
# mimics: positive/1096_blog_inplace_index_assign_after_mm.py
# expect: no finding
# checked: ran, no error

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
            bione = torch.zeros(10, 1)
            bione[i] = 1
            b = b + bione
            y = y + torch.mm(self.param, b)
        return y


net = Net()
out = net(torch.randn(10, 1))
out.sum().backward()
