# source: synthetic
# family: A
# negative: int() of the number of non-padding tokens (computed from integer targets, no history) is used as the loss normaliser
# mimics: int() / .item() inside a loss function
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0
lm = nn.Sequential(nn.Embedding(1000, 64), nn.Linear(64, 1000))
opt = torch.optim.Adam(lm.parameters(), lr=1e-3)


def token_nll(logits, targets):
    n_valid = int((targets != PAD).sum())
    total = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=PAD, reduction="sum")
    return total / max(n_valid, 1)


for step in range(50):
    tokens = torch.randint(0, 1000, (8, 33))
    tokens[:, 25:] = PAD
    loss = token_nll(lm(tokens[:, :-1]), tokens[:, 1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
