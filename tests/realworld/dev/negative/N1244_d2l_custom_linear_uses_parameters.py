# source: https://github.com/d2l-ai/d2l-en/pull/2600
# framework: torch
# family: A
# kind: data-on-loss-path
# negative: the PR's change: the layer computes with self.weight and self.bias themselves, so the loss backpropagates into them
# mimics: positive/1244_d2l_custom_linear_uses_weight_data.py
# expect: no finding
# checked: ran, no error

import torch
from torch import nn
from torch.nn import functional as F


class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(torch.randn(units,))
        
    def forward(self, X):
        linear = torch.matmul(X, self.weight) + self.bias
        return F.relu(linear)


net = nn.Sequential(MyLinear(64, 8), MyLinear(8, 1))
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
loss = (net(torch.rand(2, 64)) - torch.ones(2, 1)).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
