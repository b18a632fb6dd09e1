# source: variant of 1012_lmscnet_loss_dict_tracker.py
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: compute_loss returns a dict of loss terms; the trainer adds every term (a tensor with history) into self.meters[k], so the meters keep every step's graph
# expect: line 48 — self.meters[k] += v keeps every batch's graph alive; add v.item()
# checked: ran, reproduces (the accumulated/stored loss keeps a grad_fn: every batch graph stays alive)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(10, 10)
        self.cls = nn.Linear(10, 3)
        self.reg = nn.Linear(10, 2)

    def forward(self, x):
        h = torch.relu(self.body(x))
        return self.cls(h), self.reg(h)


class Trainer:
    def __init__(self):
        self.model = Net()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01)
        self.meters = {}

    def compute_loss(self, batch):
        x, y_cls, y_reg = batch
        logits, box = self.model(x)
        losses = {"cls": F.cross_entropy(logits, y_cls), "reg": F.l1_loss(box, y_reg)}
        losses["total"] = losses["cls"] + losses["reg"]
        return losses

    def train_epoch(self, loader):
        self.meters = {}
        for batch in loader:
            losses = self.compute_loss(batch)
            self.optimizer.zero_grad()
            losses["total"].backward()
            self.optimizer.step()
            for k, v in losses.items():
                self.meters[k] = self.meters.get(k, 0.0)
                self.meters[k] += v
        return self.meters


if __name__ == "__main__":
    loader = [(torch.randn(4, 10), torch.randint(0, 3, (4,)), torch.randn(4, 2)) for _ in range(3)]
    m = Trainer().train_epoch(loader)
    pass
