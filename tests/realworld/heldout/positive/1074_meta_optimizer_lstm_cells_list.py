# source: https://github.com/ikostrikov/pytorch-meta-optimizer/issues/11
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: the meta-optimizer's LayerNormLSTMCell modules are appended to a plain list self.lstms, so their weights are not in meta_optimizer.parameters() and are never trained
# expect: line 33 — self.lstms is a plain Python list; the LSTM cells appended to it are not registered submodules
# checked: ran, reproduces (no LSTM weights in parameters())

import torch
import torch.nn as nn


class LayerNormLSTMCell(nn.Module):
    def __init__(self, num_inputs, num_hidden):
        super().__init__()
        self.ih = nn.Linear(num_inputs, 4 * num_hidden)
        self.hh = nn.Linear(num_hidden, 4 * num_hidden)

    def forward(self, x, state):
        hx, cx = state
        i, f, g, o = (self.ih(x) + self.hh(hx)).chunk(4, 1)
        cx = torch.sigmoid(f) * cx + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(cx), cx


class MetaOptimizer(nn.Module):
    def __init__(self, model, num_layers, hidden_size):
        super(MetaOptimizer, self).__init__()
        self.meta_model = model
        self.hidden_size = hidden_size
        self.linear1 = nn.Linear(3, hidden_size)

        self.lstms = []
        for i in range(num_layers):
            self.lstms.append(LayerNormLSTMCell(hidden_size, hidden_size))

        self.linear2 = nn.Linear(hidden_size, 1)


meta_optimizer = MetaOptimizer(nn.Linear(4, 1), num_layers=2, hidden_size=10)
optimizer = torch.optim.Adam(meta_optimizer.parameters(), lr=1e-3)
names = [n for n, _ in meta_optimizer.named_parameters()]
print(names)
