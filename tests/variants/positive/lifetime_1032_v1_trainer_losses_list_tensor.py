# source: variant of 1032_dgunet_loss_list_rewrapped.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: the Trainer collects the per-stage losses in a list and sums torch.tensor(losses, requires_grad=True); the new leaf has no history, so the network is never trained
# expect: line 27 — torch.tensor(losses, requires_grad=True) copies the loss values into a fresh leaf; use torch.stack(losses).sum()
# checked: ran, reproduces (the stages' weights get .grad None)

import torch
import torch.nn as nn


def build_criterion(name):
    return nn.L1Loss() if name == "l1" else nn.MSELoss()


class Trainer:
    def __init__(self, n_stages=3):
        self.model = nn.ModuleList([nn.Conv2d(3, 3, 3, padding=1) for _ in range(n_stages)])
        self.criterion = build_criterion("l1")
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=2e-4)

    def compute_loss(self, inp, target):
        losses = []
        for stage in self.model:
            losses.append(self.criterion(stage(inp), target))
        return torch.tensor(losses, requires_grad=True).sum()

    def train_step(self, inp, target):
        self.optimizer.zero_grad()
        loss = self.compute_loss(inp, target)
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    t = Trainer()
    t.train_step(torch.rand(2, 3, 8, 8), torch.rand(2, 3, 8, 8))
