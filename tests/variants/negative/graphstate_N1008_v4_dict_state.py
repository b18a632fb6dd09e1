# source: variant of 1008_morvan_rnn_regressor_h_state_carried.py
# framework: torch
# family: C
# kind: hidden-state-not-detached
# negative: fixed twin: the carried hidden state is detached (truncated BPTT)
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn

cell = nn.LSTMCell(4, 8)
head = nn.Linear(8, 2)
optimizer = torch.optim.RMSprop(list(cell.parameters()) + list(head.parameters()), lr=1e-3)
state = {"hx": torch.zeros(1, 8), "cx": torch.zeros(1, 8)}

for update in range(3):
    obs = torch.randn(1, 4)
    hx, cx = cell(obs, (state["hx"], state["cx"]))
    state["hx"], state["cx"] = hx.detach(), cx.detach()
    value = head(hx).sum()
    loss = (value - 1.0) ** 2
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
