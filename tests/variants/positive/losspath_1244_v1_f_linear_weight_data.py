# source: variant of 1244_d2l_custom_linear_uses_weight_data.py
# framework: torch
# family: A
# kind: data-on-loss-path
# pitfall: a custom linear layer calls F.linear(x, self.weight.data, self.bias.data); .data has no autograd history, so the layer's parameters never receive a gradient
# expect: line 24 — F.linear on self.weight.data / self.bias.data bypasses autograd; pass self.weight and self.bias
# checked: ran, reproduces (loss.backward() raises "element 0 of tensors does not require grad")

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
        return F.linear(x, self.weight.data, self.bias.data)


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
