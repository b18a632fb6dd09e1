# source: negative twin of a variant of 3049_trainer_zero_grad_inside_accumulation.py
# framework: torch
# family: C
# kind: misplaced-zero-grad
# negative: the helper only runs forward/backward; the loop clears right after optimizer.step()
# mimics: positive/3049_v5_helper_backward_step.py
# expect: no finding
# checked: ran; the step pre-hook counts [4, 4] backward calls per step

import torch
import torch.nn as nn
import torch.nn.functional as F


def forward_backward(model, optimizer, batch, grad_accum_steps):
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
            optimizer.zero_grad()


model = nn.Linear(6, 1)
train(model, torch.optim.SGD(model.parameters(), lr=0.01), [(torch.randn(4, 6), torch.randn(4, 1)) for _ in range(8)])
