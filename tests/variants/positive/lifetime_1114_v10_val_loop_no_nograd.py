# source: variant of 1114_yolo3_total_loss_plus_equals.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the validation method sets model.eval() but forgets torch.no_grad(); val_loss += loss then keeps the graph of every validation batch (eval() does not stop autograd)
# expect: line 32 — val_loss += loss inside a validation loop without no_grad keeps every batch's graph; use loss.item() (and wrap in torch.no_grad())
# checked: ran, reproduces (val_loss keeps a grad_fn: every validation batch graph stays alive)

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def train_epoch(self, loader):
        self.model.train()
        for x, y in loader:
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()

    def validate(self, loader):
        self.model.eval()
        val_loss = 0
        for x, y in loader:
            loss = self.criterion(self.model(x), y)
            val_loss += loss
        return val_loss / len(loader)


if __name__ == "__main__":
    t = Trainer(nn.Linear(8, 3))
    loader = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
    t.train_epoch(loader)
    pass
