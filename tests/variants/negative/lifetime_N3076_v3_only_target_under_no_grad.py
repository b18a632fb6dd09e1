# source: negative twin of 3076_v3_refine_no_grad_plus_aux_term.py
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: none: only the target is computed under no_grad; the frozen EMA is applied to pred with grad enabled
# checked: ran (no error; gradients reach the model)

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
