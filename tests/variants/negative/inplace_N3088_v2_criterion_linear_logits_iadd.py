# source: variant of 3088_resample_loss_logits_iadd_after_sigmoid.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — criterion edits its input in place, but the caller's model ends in a Linear (raw logits, not saved)
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class ShiftedCE(nn.Module):
    def __init__(self, bias):
        super().__init__()
        self.bias = bias

    def forward(self, logits, target):
        logits += self.bias
        return nn.functional.cross_entropy(logits, target)


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 5))
criterion = ShiftedCE(torch.randn(5))
out = model(torch.randn(4, 8))
loss = criterion(out, torch.randint(0, 5, (4,)))
loss.backward()
