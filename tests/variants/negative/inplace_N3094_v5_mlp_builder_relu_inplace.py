# source: variant of 3094_relu_then_functional_relu_.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — MLP builder with Linear then ReLU(inplace=True)
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


def mlp(sizes):
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        layers.append(nn.ReLU(inplace=True))
    return nn.Sequential(*layers)


net = mlp([4, 8, 2])
net(torch.randn(3, 4)).sum().backward()
