# source: variant of 3088_resample_loss_logits_iadd_after_sigmoid.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: loss function clamps the sigmoid probabilities in place (probs.clamp_(eps, 1 - eps)); SigmoidBackward saved probs
# expect: line 14 — probs.clamp_(eps, 1 - eps) on the sigmoid output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [4, 3]], which is output 0 of Sigmoid, is at version 1; expected versio)
import torch
import torch.nn as nn


def bce_loss(logits, target, eps=1e-6):
    probs = torch.sigmoid(logits)
    probs.clamp_(eps, 1 - eps)
    return -(target * probs.log() + (1 - target) * (1 - probs).log()).mean()


model = nn.Linear(8, 3)
loss = bce_loss(model(torch.randn(4, 8)), torch.randint(0, 2, (4, 3)).float())
loss.backward()
