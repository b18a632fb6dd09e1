# source: variant of 1042_racnn_rank_loss_vector_backward.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: the criterion is built by a factory function (reduction="none" to support sample weights) and stored on the trainer; the weighted per-sample loss is backpropagated without reduction
# expect: line 29 — weighted.backward() on a per-sample vector
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)
import torch
import torch.nn as nn


def build_criterion(name):
    if name == "mse":
        return nn.MSELoss(reduction="none")
    return nn.SmoothL1Loss(reduction="none")


class Trainer:
    def __init__(self, model, loss_name="mse"):
        self.model = model
        self.criterion = build_criterion(loss_name)
        self.optimizer = torch.optim.Adam(model.parameters())

    def train_step(self, batch):
        x, y, w = batch["x"], batch["y"], batch["w"]
        per_sample = self.criterion(self.model(x), y).mean(dim=1)
        weighted = per_sample * w
        self.optimizer.zero_grad()
        weighted.backward()
        self.optimizer.step()


Trainer(nn.Linear(4, 2)).train_step({"x": torch.randn(8, 4), "y": torch.randn(8, 2), "w": torch.rand(8)})
