# source: variant of 1010_bilstm_crf_sum_log_likelihood.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the reporting total is updated as epoch_loss = epoch_loss + loss (not +=), still with the graph-carrying loss, so every sentence's graph stays alive
# expect: line 36 — epoch_loss = epoch_loss + loss keeps each iteration's graph; add loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, vocab=20, tags=3, dim=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, tags)

    def neg_log_likelihood(self, sent, tags):
        h, _ = self.lstm(self.emb(sent))
        return nn.functional.cross_entropy(self.out(h).squeeze(0), tags.squeeze(0), reduction="sum")


model = Tagger()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
data = [(torch.randint(0, 20, (1, 6)), torch.randint(0, 3, (1, 6))) for _ in range(3)]

for epoch in range(2):
    epoch_loss = 0
    for sent, tags in data:
        model.zero_grad()
        loss = model.neg_log_likelihood(sent, tags)
        loss.backward()
        optimizer.step()
        epoch_loss = epoch_loss + loss
    pass
