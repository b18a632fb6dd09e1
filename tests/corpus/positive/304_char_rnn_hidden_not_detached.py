# source: https://discuss.pytorch.org/t/help-clarifying-repackage-hidden-in-word-language-model/226
# family: C
# pitfall: char-level RNN carries its hidden state from one batch to the next without detaching it
# expect: line 29 — `hidden` is fed into the next batch's forward still referencing the previous batch's graph, which the previous backward freed: the backward of the second iteration raises "backward through the graph a second time"

import torch
import torch.nn as nn


class CharRNN(nn.Module):
    def __init__(self, vocab=65, hidden=128):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.RNN(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens, h):
        y, h = self.rnn(self.embed(tokens), h)
        return self.out(y), h


model = CharRNN()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
text = torch.randint(0, 65, (16, 50 * 10 + 1))
hidden = torch.zeros(1, 16, 128)

for i in range(0, 500, 50):
    inp, tgt = text[:, i:i + 50], text[:, i + 1:i + 51]
    logits, hidden = model(inp, hidden)
    loss = nn.functional.cross_entropy(logits.reshape(-1, 65), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
