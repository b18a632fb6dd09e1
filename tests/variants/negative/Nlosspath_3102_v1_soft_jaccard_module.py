# source: variant of 3102_smp_dice_threshold.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# negative: fixed twin: the Jaccard loss uses the soft probabilities (threshold=None default, as smp's loss)
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn


class JaccardLoss(nn.Module):
    def __init__(self, threshold=None, eps=1e-7):
        super().__init__()
        self.threshold = threshold
        self.eps = eps

    def forward(self, logits, target):
        probs = torch.sigmoid(logits)
        if self.threshold is not None:
            probs = (probs >= self.threshold).float()
        inter = (probs * target).sum(dim=(1, 2, 3))
        union = probs.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3)) - inter
        return (1 - (inter + self.eps) / (union + self.eps)).mean()


model = nn.Conv2d(3, 1, 3, padding=1)
optimizer = torch.optim.Adam(model.parameters())
criterion = JaccardLoss()
x = torch.randn(2, 3, 16, 16)
y = (torch.rand(2, 1, 16, 16) > 0.5).float()
loss = criterion(model(x), y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
