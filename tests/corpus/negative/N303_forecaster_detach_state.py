# source: https://github.com/pytorch/examples/blob/main/word_language_model/main.py
# family: C
# negative: stateful GRU forecaster carries its hidden state across windows but detaches it before each forward (truncated BPTT), no retain_graph
# mimics: hidden state reused across iterations inside a fit() method
# expect: no finding

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
            if h is not None:
                h = h.detach()
            out, h = self.gru(x, h)
            loss = nn.functional.mse_loss(self.fc(out[:, -1]), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


Forecaster().fit([(torch.randn(4, 12, 3), torch.randn(4, 3)) for _ in range(50)])
