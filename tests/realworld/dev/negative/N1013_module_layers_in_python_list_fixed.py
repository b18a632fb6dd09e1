# source: https://github.com/pytorch/pytorch/issues/666
# framework: torch
# family: D
# kind: params-not-in-optimizer
# negative: the recommended fix from the linked discussion: the layers are wrapped in nn.ModuleList, which registers them
# mimics: positive/1013_module_layers_in_python_list.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class net(nn.Module):
    def __init__(self, num_layers):
        super(net, self).__init__()

        self.layer = nn.Linear(1, 1)
        self.list_of_layers = nn.ModuleList([nn.Linear(1, 1) for i in range(num_layers)])

    def forward(self, x):
        x = self.layer(x)
        for l in self.list_of_layers:
            x = l(x)
        return x


n = net(4)
print(n)
optimizer = torch.optim.SGD(n.parameters(), lr=0.1)
