# source: https://discuss.pytorch.org/t/gradient-is-lost-when-use-torch-tensor-t1-t2/23261
# family: A
# pitfall: per-sequence predictions of a GRU over variable-length inputs are collected in a list and converted with torch.FloatTensor(preds)
# expect: line 21 — torch.FloatTensor(list_of_tensors) copies values into a new tensor without history; use torch.stack(preds)

import torch
import torch.nn as nn
import torch.nn.functional as F

rnn = nn.GRU(input_size=6, hidden_size=32, batch_first=True)
head = nn.Linear(32, 1)
opt = torch.optim.Adam([*rnn.parameters(), *head.parameters()], lr=1e-3)

sequences = [torch.randn(n, 6) for n in (5, 9, 3, 12)]
targets = torch.randn(4)

preds = []
for seq in sequences:
    out, _ = rnn(seq.unsqueeze(0))
    preds.append(head(out[:, -1]).squeeze())
pred_t = torch.FloatTensor(preds)
loss = F.mse_loss(pred_t, targets)
opt.zero_grad()
loss.backward()
opt.step()
