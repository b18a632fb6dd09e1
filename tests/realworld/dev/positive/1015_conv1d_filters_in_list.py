# source: https://github.com/pytorch/pytorch/issues/1053
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: three Conv1d filters of a text CNN are stored in a list literal self.conv1d; they are neither moved by .cuda() nor given to the optimizer
# expect: line 18 — a list literal of modules is not registered; these convolutions are invisible to parameters(), .cuda() and the optimizer
# checked: ran, reproduces (parameters() has only the linear layer)

import torch as th

WORD_VEC_SIZE = 16


class Net(th.nn.Module):
    def __init__(self):
        super(Net, self).__init__()

        self.conv1d = [
            th.nn.Conv1d(WORD_VEC_SIZE, 1, 3),
            th.nn.Conv1d(WORD_VEC_SIZE, 1, 4),
            th.nn.Conv1d(WORD_VEC_SIZE, 1, 5)
        ]
        self.fc = th.nn.Linear(3, 2)

    def forward(self, x):
        feats = [c(x).max(dim=2)[0] for c in self.conv1d]
        return self.fc(th.cat(feats, dim=1))


a = Net()
optimizer = th.optim.Adam(a.parameters())
