# source: https://github.com/pytorch/pytorch/issues/666
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: a variable number of layers is kept in a plain Python list attribute, so nn.Module does not register them and their parameters are never returned by parameters()
# expect: line 18 — layers in a plain list are not registered submodules; the optimizer never sees (or updates) their weights
# checked: ran, reproduces (parameters() has only the first layer)

import torch
import torch.nn as nn


class net(nn.Module):
    def __init__(self, num_layers):
        super(net, self).__init__()

        self.layer = nn.Linear(1, 1)
        self.list_of_layers = [nn.Linear(1, 1) for i in range(num_layers)]

    def forward(self, x):
        x = self.layer(x)
        for l in self.list_of_layers:
            x = l(x)
        return x


n = net(4)
print(n)
optimizer = torch.optim.SGD(n.parameters(), lr=0.1)
