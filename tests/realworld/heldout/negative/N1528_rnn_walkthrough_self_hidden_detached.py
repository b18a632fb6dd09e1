# source: https://github.com/gabrielloye/RNN-walkthrough/issues/3
# framework: torch
# family: C
# kind: hidden-state-not-detached
# negative: the reporter's working variant carries the RNN state across batches in self.hidden but feeds it as self.hidden.detach(), so each backward stops at the batch boundary (truncated BPTT)
# mimics: a recurrent hidden state stored on the module and reused by the next batch
# expect: no finding
# checked: ran, no error

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, input_size, output_size, hidden_dim, n_layers, batch_size):
        super(Model, self).__init__()
        self.hidden_dim = hidden_dim
        self.n_layers = n_layers
        self.rnn = nn.RNN(input_size, hidden_dim, n_layers, batch_first=True)
        self.fc = nn.Linear(hidden_dim, output_size)
        self.hidden = torch.zeros(self.n_layers, batch_size, self.hidden_dim)

    def forward(self, x):
        out, self.hidden = self.rnn(x, self.hidden.detach())
        out = out.contiguous().view(-1, self.hidden_dim)
        out = self.fc(out)
        return out, self.hidden


model = Model(input_size=17, output_size=17, hidden_dim=12, n_layers=1, batch_size=3)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
input_seq = torch.randn(3, 14, 17)
target_seq = torch.randint(0, 17, (3, 14))
for epoch in range(1, 5):
    optimizer.zero_grad()
    output, hidden = model(input_seq)
    loss = criterion(output, target_seq.view(-1).long())
    loss.backward()
    optimizer.step()
