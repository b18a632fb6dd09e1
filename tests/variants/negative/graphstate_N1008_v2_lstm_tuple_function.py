# source: variant of 1008_morvan_rnn_regressor_h_state_carried.py
# framework: torch
# family: C
# kind: hidden-state-not-detached
# negative: fixed twin: the carried hidden state is detached (truncated BPTT)
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class LSTMLM(nn.Module):
    def __init__(self, ntoken=50, nhid=16):
        super().__init__()
        self.nhid = nhid
        self.encoder = nn.Embedding(ntoken, nhid)
        self.lstm = nn.LSTM(nhid, nhid)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, inp, hidden):
        output, hidden = self.lstm(self.encoder(inp), hidden)
        return self.decoder(output), hidden

    def init_hidden(self, bsz):
        return (torch.zeros(1, bsz, self.nhid), torch.zeros(1, bsz, self.nhid))


def train_epoch(model, optimizer, criterion, batches, bsz):
    model.train()
    hidden = model.init_hidden(bsz)
    for data, targets in batches:
        optimizer.zero_grad()
        hidden = tuple(h.detach() for h in hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output.view(-1, output.size(-1)), targets.view(-1))
        loss.backward()
        optimizer.step()


model = LSTMLM()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randint(0, 50, (5, 4)), torch.randint(0, 50, (5, 4))) for _ in range(3)]
train_epoch(model, opt, nn.CrossEntropyLoss(), batches, 4)
