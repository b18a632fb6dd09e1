# source: variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# pitfall: the forward/backward of one batch lives in a helper that clears the gradients first; the epoch loop calls it on every batch and steps only every grad_accum_steps batches, so the helper's zero_grad wipes the accumulated gradients
# expect: line 15 — optimizer.zero_grad() in the per-batch helper, called on every batch of an accumulate-then-step loop
# checked: ran, reproduces (a step pre-hook counting backward calls since the last clear: [1, 1], each optimizer.step() sees one micro-batch instead of the accumulated ones)

import torch
import torch.nn as nn
import torch.nn.functional as F


def forward_backward(model, optimizer, batch, grad_accum_steps):
    optimizer.zero_grad()
    x, y = batch
    loss = F.mse_loss(model(x), y) / grad_accum_steps
    loss.backward()
    return loss.item()


def train(model, optimizer, loader, grad_accum_steps=4):
    for step, batch in enumerate(loader):
        forward_backward(model, optimizer, batch, grad_accum_steps)
        if (step + 1) % grad_accum_steps == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()


model = nn.Linear(6, 1)
train(model, torch.optim.SGD(model.parameters(), lr=0.01), [(torch.randn(4, 6), torch.randn(4, 1)) for _ in range(8)])
