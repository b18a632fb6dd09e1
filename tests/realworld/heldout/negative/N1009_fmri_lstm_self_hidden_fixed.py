# source: https://github.com/sgadgil6/cnslab_fmri/issues/4
# framework: torch
# family: C
# kind: hidden-state-not-detached
# negative: the accepted fix (pull request #5): the LSTM is called without the stored hidden state, so every batch starts from zeros and no graph crosses batches
# mimics: positive/1009_fmri_lstm_self_hidden.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn

device = torch.device("cpu")


class fMRI_LSTM(nn.Module):
    def __init__(self, hidden_dim, input_dim):
        super(fMRI_LSTM, self).__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim, num_layers=1, batch_first=True)
        self.linear = nn.Linear(hidden_dim, 1)
        self.hidden = self.init_hidden()
        self.dropout = nn.Dropout(p=0.2)
        self.activate = nn.Sigmoid()

    def init_hidden(self, ):
        return (torch.randn(1, 64, self.hidden_dim).to(device), torch.randn(1, 64, self.hidden_dim).to(device))

    def forward(self, x):
        lstm_out, self.hidden = self.lstm(x)
        lstm_out = lstm_out.squeeze()[:, -1, :]
        out = self.dropout(lstm_out)
        linear_output = self.linear(out)
        final_output = self.activate(linear_output)
        return final_output


model = fMRI_LSTM(hidden_dim=16, input_dim=20)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.BCELoss()
for epoch in range(3):
    x = torch.randn(64, 30, 20)
    y = torch.randint(0, 2, (64, 1)).float()
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
