# source: variant of 3102_smp_dice_threshold.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: Dice loss helper binarizes the prediction with torch.where(pr > thr, 1.0, 0.0) before the F-score; no gradient flows through
# expect: line 13 — torch.where(pr > threshold, 1.0, 0.0) hard-thresholds the prediction
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn


def dice_score(pr, gt, threshold=0.5, eps=1.0):
    pr = torch.where(pr > threshold, 1.0, 0.0)
    inter = (pr * gt).sum()
    return (2 * inter + eps) / (pr.sum() + gt.sum() + eps)


class DiceLoss(nn.Module):
    def __init__(self, threshold=0.5):
        super().__init__()
        self.threshold = threshold

    def forward(self, logits, target):
        return 1 - dice_score(torch.sigmoid(logits), target, self.threshold)


model = nn.Conv2d(3, 1, 3, padding=1)
x = torch.randn(2, 3, 16, 16)
y = (torch.rand(2, 1, 16, 16) > 0.5).float()
loss = DiceLoss()(model(x), y)
loss.backward()
