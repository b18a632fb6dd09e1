# source: variant of 3076_loss_input_recomputed_under_no_grad.py
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: the prediction is rebound through a @torch.no_grad()-decorated helper method (meant for the target) before the loss, so the loss is computed from a value with no graph and the model receives no gradient
# expect: line 27 — pred = self.project(pred) runs under the helper's @torch.no_grad(); the loss built from it has no graph to the model
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self):
        self.model = nn.Linear(8, 8)
        self.teacher = nn.Linear(8, 4).requires_grad_(False)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    @torch.no_grad()
    def project(self, h):
        return F.normalize(self.teacher(h), dim=-1)

    def train_step(self, x, y):
        pred = self.model(x)
        target = self.project(y)
        pred = self.project(pred)
        loss = (pred - target).pow(2).sum(-1).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


Trainer().train_step(torch.randn(4, 8), torch.randn(4, 8))
