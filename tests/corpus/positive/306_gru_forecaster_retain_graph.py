# source: https://discuss.pytorch.org/t/runtimeerror-trying-to-backward-through-the-graph-a-second-time-but-the-buffers-have-already-been-freed-specify-retain-graph-true-when-calling-backward-the-first-time/6795
# family: C
# pitfall: the "backward a second time" error of a carried GRU state is silenced with retain_graph=True inside a Forecaster.fit loop
# expect: line 23 — retain_graph=True keeps every earlier window alive through the undetached state: memory/time grow each step, and after optimizer.step() backward fails with "modified by an inplace operation"

import torch
import torch.nn as nn


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 48, batch_first=True)
        self.fc = nn.Linear(48, 3)
        self.opt = torch.optim.Adam(self.parameters(), lr=1e-3)

    def fit(self, windows):
        h = None
        for x, y in windows:
            out, h = self.gru(x, h)
            loss = nn.functional.mse_loss(self.fc(out[:, -1]), y)
            self.opt.zero_grad()
            loss.backward(retain_graph=True)
            self.opt.step()


Forecaster().fit([(torch.randn(4, 12, 3), torch.randn(4, 3)) for _ in range(50)])
