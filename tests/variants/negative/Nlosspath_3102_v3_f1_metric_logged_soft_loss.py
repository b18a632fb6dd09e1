# source: variant of 3102_smp_dice_threshold.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# negative: fixed twin: the thresholded F1 is only logged (under no_grad); the loss is a soft F1 on the probabilities
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn


def f1_score(probs, target, threshold=0.5, eps=1e-7):
    pred = (probs > threshold) * 1.0
    tp = (pred * target).sum()
    precision = tp / (pred.sum() + eps)
    recall = tp / (target.sum() + eps)
    return 2 * precision * recall / (precision + recall + eps)


def train_epoch(model, optimizer, loader):
    for x, y in loader:
        probs = torch.sigmoid(model(x))
        tp = (probs * y).sum()
        loss = 1 - 2 * tp / (probs.sum() + y.sum() + 1e-7)
        with torch.no_grad():
            print('f1', f1_score(probs, y).item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


model = nn.Linear(10, 1)
train_epoch(model, torch.optim.SGD(model.parameters(), lr=0.1),
            [(torch.randn(16, 10), (torch.rand(16, 1) > 0.5).float())])
