# source: variant of 1244_d2l_custom_linear_uses_weight_data.py
# framework: torch
# family: A
# kind: data-on-loss-path
# negative: fixed twin: F.linear on the parameters themselves
# expect: no finding
# checked: ran, no error (exit 0)

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.zeros(out_features))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = MyLinear(20, 16)
        self.fc2 = MyLinear(16, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = MLP()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 20), torch.randn(8, 1)
optimizer.zero_grad()
loss = F.mse_loss(model(x), y)
loss.backward()
optimizer.step()
