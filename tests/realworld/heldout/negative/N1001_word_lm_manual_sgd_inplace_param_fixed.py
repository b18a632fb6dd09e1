# source: https://github.com/pytorch/examples/pull/779
# framework: torch
# family: D
# kind: inplace-on-leaf
# negative: the accepted fix: the update goes through p.data, which autograd does not track
# mimics: positive/1001_word_lm_manual_sgd_inplace_param.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn

model = nn.LSTM(10, 20, 2)
decoder = nn.Linear(20, 10)
criterion = nn.CrossEntropyLoss()
lr = 20
clip = 0.25


def train():
    model.train()
    hidden = None
    for batch in range(2):
        data = torch.randn(5, 3, 10)
        targets = torch.randint(0, 10, (15,))
        model.zero_grad()
        output, hidden = model(data)
        loss = criterion(decoder(output).view(-1, 10), targets)
        loss.backward()

        # `clip_grad_norm` helps prevent the exploding gradient problem in RNNs / LSTMs.
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(-lr, p.grad)


train()
