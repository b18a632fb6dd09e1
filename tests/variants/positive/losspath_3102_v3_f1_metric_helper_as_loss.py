# source: variant of 3102_smp_dice_threshold.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: an F1 metric helper (binarising with (probs > threshold) * 1.0) is reused as the training loss 1 - f1(...); the comparison has no gradient and backward fails
# expect: line 14 — (probs > threshold) * 1.0 hard-thresholds the prediction inside the F1 helper used as a loss
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)

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
        loss = 1 - f1_score(probs, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


model = nn.Linear(10, 1)
train_epoch(model, torch.optim.SGD(model.parameters(), lr=0.1),
            [(torch.randn(16, 10), (torch.rand(16, 1) > 0.5).float())])
