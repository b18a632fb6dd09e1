# source: variant of 3076_loss_input_recomputed_under_no_grad.py
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: the student's prediction is passed through the frozen EMA refiner under torch.no_grad() and rebound to the same name; the loss is then computed from the new pred, which has no graph, so the student gets no gradient
# expect: line 26 — pred = self.ema(pred) under no_grad replaces the student's prediction the loss uses
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Distiller(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.student = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.ema = copy.deepcopy(self.student).requires_grad_(False)

    def compute_loss(self, x, target):
        pred = self.student(x)
        with torch.no_grad():
            target = self.ema(target)
            pred = self.ema(pred)
        return F.mse_loss(pred, target)


model = Distiller()
optimizer = torch.optim.Adam(model.student.parameters(), lr=1e-3)
x, y = torch.randn(4, 8), torch.randn(4, 8)
loss = model.compute_loss(x, y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
