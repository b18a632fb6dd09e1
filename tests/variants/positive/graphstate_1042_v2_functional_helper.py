# source: variant of 1042_racnn_rank_loss_vector_backward.py
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: a loss helper returns F.mse_loss(..., reduction="none") weighted per sample; the training function calls .backward() on the returned vector
# expect: line 21 — compute_loss(...).backward() on a non-scalar
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs)
import torch
import torch.nn as nn
import torch.nn.functional as F


def compute_loss(pred, target, weights):
    per_elem = F.mse_loss(pred, target, reduction="none")
    return per_elem.mean(dim=1) * weights


def train(model, optimizer, batches):
    for x, y, w in batches:
        optimizer.zero_grad()
        compute_loss(model(x), y, w).backward()
        optimizer.step()


model = nn.Linear(4, 3)
train(model, torch.optim.Adam(model.parameters()), [(torch.randn(8, 4), torch.randn(8, 3), torch.rand(8))])
