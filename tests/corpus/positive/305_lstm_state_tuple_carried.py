# source: https://github.com/pytorch/examples/blob/main/word_language_model/main.py
# family: C
# pitfall: stateful LSTM forecaster keeps the (h, c) tuple across windows of a long series, forgetting the repackage_hidden step
# expect: line 20 — (h, c) are fed into the next window still referencing the previous window's graph (already freed by its backward): the second window's backward fails

import torch
import torch.nn as nn
import torch.nn.functional as F


def fit(series, window=24, epochs=3):
    lstm = nn.LSTM(1, 64)
    proj = nn.Linear(64, 1)
    opt = torch.optim.RMSprop([*lstm.parameters(), *proj.parameters()], lr=1e-3)
    for epoch in range(epochs):
        state = (torch.zeros(1, 1, 64), torch.zeros(1, 1, 64))
        for start in range(0, len(series) - window - 1, window):
            chunk = series[start:start + window].view(window, 1, 1)
            nxt = series[start + 1:start + window + 1].view(window, 1, 1)
            out, state = lstm(chunk, state)
            loss = F.mse_loss(proj(out), nxt)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return lstm, proj


if __name__ == "__main__":
    fit(torch.sin(torch.linspace(0, 60, 2000)))
