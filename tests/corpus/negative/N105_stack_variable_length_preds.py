# source: https://discuss.pytorch.org/t/gradient-is-lost-when-use-torch-tensor-t1-t2/23261
# family: A
# negative: per-sequence GRU predictions for variable-length inputs are combined with torch.stack, which keeps autograd history
# mimics: list of model outputs converted into one tensor
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

rnn = nn.GRU(input_size=6, hidden_size=32, batch_first=True)
head = nn.Linear(32, 1)
opt = torch.optim.Adam([*rnn.parameters(), *head.parameters()], lr=1e-3)

sequences = [torch.randn(n, 6) for n in (5, 9, 3, 12)]
targets = torch.tensor([0.5, -1.0, 2.0, 0.0])

preds = []
for seq in sequences:
    out, _ = rnn(seq.unsqueeze(0))
    preds.append(head(out[:, -1]).squeeze())
loss = F.mse_loss(torch.stack(preds), targets)
opt.zero_grad()
loss.backward()
opt.step()
