# source: https://github.com/d2l-ai/d2l-en/pull/2600
# framework: torch
# family: A
# kind: data-on-loss-path
# pitfall: the book's custom layer MyLinear registers weight and bias as nn.Parameter but computes its output from self.weight.data and self.bias.data; .data is a view without autograd history, so nothing built from MyLinear sends a gradient to its parameters and a network made of these layers cannot be trained
# expect: line 21 — torch.matmul(X, self.weight.data) + self.bias.data bypasses autograd; the PR uses self.weight and self.bias so that backpropagation reaches them
# checked: ran, reproduces (the loss has no grad_fn: "element 0 of tensors does not require grad"); chapter_builders-guide/custom-layer.md's PyTorch MyLinear and the two-layer net verbatim, with a training step added

import torch
from torch import nn
from torch.nn import functional as F


class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(torch.randn(units,))
        
    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)


net = nn.Sequential(MyLinear(64, 8), MyLinear(8, 1))
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
loss = (net(torch.rand(2, 64)) - torch.ones(2, 1)).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
