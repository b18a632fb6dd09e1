# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the training step returns (loss, logs); the epoch loop does epoch_loss += loss with the graph-carrying tensor, keeping every batch's graph alive
# expect: line 33 — epoch_loss += loss keeps each batch's graph; use loss.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.criterion = nn.MSELoss()
        self.opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def step(self, batch):
        x, y = batch
        pred = self.model(x)
        loss = self.criterion(pred, y)
        logs = {"mse": loss.item()}
        return loss, logs

    def fit_epoch(self, loader):
        epoch_loss = 0
        for batch in loader:
            loss, logs = self.step(batch)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            epoch_loss += loss
        return epoch_loss / len(loader)


if __name__ == "__main__":
    t = Trainer(nn.Linear(5, 1))
    loader = [(torch.randn(4, 5), torch.randn(4, 1)) for _ in range(3)]
    pass
