# source: variant of 3094_relu_then_functional_relu_.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: layers built in a loop into nn.Sequential with ELU(inplace=True) after a Tanh (the tanh output is saved)
# expect: line 17 — nn.ELU(inplace=True) right after nn.Tanh() in a layer list
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3, 2]], which is output 0 of Tanh, is at version 1; expected version 0)
import torch
import torch.nn as nn


def mlp(sizes):
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        layers.append(nn.Tanh())
        layers.append(nn.ELU(inplace=True))
    return nn.Sequential(*layers)


net = mlp([4, 8, 2])
net(torch.randn(3, 4)).sum().backward()
