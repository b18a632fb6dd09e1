# source: variant of 1008_morvan_rnn_regressor_h_state_carried.py
# framework: torch
# family: C
# kind: hidden-state-not-detached
# pitfall: the LSTM module keeps its own state (self.hidden, initialised in __init__) and updates it in forward; without detaching, the second training step's backward reaches the first step's freed graph
# expect: line 24 — self.hidden from the previous call is fed into self.lstm
# checked: ran, reproduces (RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate value)
import torch
import torch.nn as nn


class LSTMTagger(nn.Module):
    def __init__(self, n_in=5, n_hid=8, n_out=3):
        super().__init__()
        self.n_hid = n_hid
        self.lstm = nn.LSTM(n_in, n_hid)
        self.fc = nn.Linear(n_hid, n_out)
        self.hidden = self.init_hidden()

    def init_hidden(self):
        return (torch.zeros(1, 1, self.n_hid), torch.zeros(1, 1, self.n_hid))

    def forward(self, seq):
        lstm_out, self.hidden = self.lstm(seq.view(len(seq), 1, -1), self.hidden)
        return self.fc(lstm_out.view(len(seq), -1))


model = LSTMTagger()
loss_function = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for seq, tags in [(torch.randn(6, 5), torch.randint(0, 3, (6,)))]:
        model.zero_grad()
        scores = model(seq)
        loss = loss_function(scores, tags)
        loss.backward()
        optimizer.step()
