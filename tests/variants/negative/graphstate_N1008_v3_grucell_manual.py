# source: variant of 1008_morvan_rnn_regressor_h_state_carried.py
# framework: torch
# family: C
# kind: hidden-state-not-detached
# negative: fixed twin: the carried hidden state is detached (truncated BPTT)
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class StatefulGRU(nn.Module):
    def __init__(self, n_in=3, n_hid=8):
        super().__init__()
        self.cell = nn.GRUCell(n_in, n_hid)
        self.head = nn.Linear(n_hid, 1)
        self.h = torch.zeros(2, n_hid)

    def forward(self, seq):
        h = self.h
        outs = []
        for x_t in seq.unbind(1):
            h = self.cell(x_t, h)
            outs.append(self.head(h))
        self.h = h.detach()
        return torch.stack(outs, 1)


model = StatefulGRU()
opt = torch.optim.Adam(model.parameters())
for chunk in range(3):
    x = torch.randn(2, 6, 3)
    y = torch.randn(2, 6, 1)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
