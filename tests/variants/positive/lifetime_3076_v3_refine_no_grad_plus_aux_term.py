# source: variant of 3076_loss_input_recomputed_under_no_grad.py
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: a Trainer's compute_loss maps the student's prediction through the frozen EMA network inside torch.no_grad() and rebinds pred; the consistency term then has no graph, and because a second (supervised) term still has one, training runs silently without the consistency signal
# expect: line 28 — pred = self.ema(pred) under no_grad replaces the student's prediction the consistency term uses
# checked: ran, reproduces (losses["cons"].requires_grad is False while losses["sup"] is True; backward runs silently)

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, dim=8):
        self.student = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, dim))
        self.ema = copy.deepcopy(self.student).requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.student.parameters(), lr=1e-3)

    def compute_loss(self, x_noisy, x_clean):
        losses = {}
        pred = self.student(x_noisy)
        losses["sup"] = F.mse_loss(pred, x_clean)
        with torch.no_grad():
            target = self.ema(x_clean)
            pred = self.ema(pred)
        losses["cons"] = F.mse_loss(pred, target)
        return losses

    def train_step(self, x_noisy, x_clean):
        losses = self.compute_loss(x_noisy, x_clean)
        loss = sum(losses.values())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {k: v.item() for k, v in losses.items()}


if __name__ == "__main__":
    Trainer().train_step(torch.randn(4, 8), torch.randn(4, 8))
