# source: variant of 3088_resample_loss_logits_iadd_after_sigmoid.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — clamp out of place after sigmoid
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


def bce_loss(logits, target, eps=1e-6):
    probs = torch.sigmoid(logits)
    probs = probs.clamp(eps, 1 - eps)
    return -(target * probs.log() + (1 - target) * (1 - probs).log()).mean()


model = nn.Linear(8, 3)
loss = bce_loss(model(torch.randn(4, 8)), torch.randint(0, 2, (4, 3)).float())
loss.backward()
