# Correct: truncated backpropagation through time; the hidden state is detached each step.
import torch
import torch.nn as nn

torch.manual_seed(0)
lstm = nn.LSTM(4, 8, batch_first=True)
head = nn.Linear(8, 1)
opt = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=1e-3)
state = None
for step in range(20):
    x, y = torch.randn(2, 5, 4), torch.randn(2, 5, 1)
    out, state = lstm(x, state)
    state = tuple(s.detach() for s in state)
    loss = ((head(out) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
