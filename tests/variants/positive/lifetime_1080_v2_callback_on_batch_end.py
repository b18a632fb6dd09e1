# source: variant of 1080_dqn_cost_his_append_loss.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the training loop hands the loss tensor to a logger callback whose on_batch_end appends it to self.losses; the logger keeps every batch's graph alive
# expect: line 31 — logger.on_batch_end(loss) passes the graph-carrying loss to a callback that stores it; pass loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every step graph stays alive)

import torch
import torch.nn as nn


class LossLogger:
    def __init__(self):
        self.losses = []

    def on_batch_end(self, loss):
        self.losses.append(loss)


def fit(model, loader, epochs=2):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    criterion = nn.MSELoss()
    logger = LossLogger()
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            logger.on_batch_end(loss)
    return logger


if __name__ == "__main__":
    lg = fit(nn.Linear(4, 2), [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(3)])
    pass
