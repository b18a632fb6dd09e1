# source: variant of 1008_morvan_rnn_regressor_h_state_carried.py
# framework: torch
# family: C
# kind: hidden-state-not-detached
# negative: fixed twin: the carried hidden state is detached (truncated BPTT)
# expect: no finding
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class RNNRegressor(nn.Module):
    def __init__(self, hidden_size=32):
        super().__init__()
        self.rnn = nn.RNN(input_size=1, hidden_size=hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, 1)

    def forward(self, x, h):
        r_out, h = self.rnn(x, h)
        return self.out(r_out), h


class Trainer:
    def __init__(self, model, lr=0.02):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_fn = nn.MSELoss()
        self.hidden = None

    def train_step(self, x, y):
        prediction, hidden = self.model(x, self.hidden)
        self.hidden = hidden.detach()
        loss = self.loss_fn(prediction, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, steps=5):
        for step in range(steps):
            t = torch.linspace(step, step + 1, 10).view(1, 10, 1)
            self.train_step(torch.sin(t), torch.cos(t))


Trainer(RNNRegressor()).fit()
