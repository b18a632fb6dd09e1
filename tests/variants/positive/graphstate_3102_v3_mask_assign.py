# source: variant of 3102_smp_dice_threshold.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: the prediction is binarized by mask assignment into a fresh zeros tensor (pr_bin[pr > t] = 1); the loss has no path to the model
# expect: line 14 — pr_bin[pr > threshold] = 1 copies only a comparison result
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn


def f_score(pr, gt, threshold=0.5, eps=1e-7):
    pr_bin = torch.zeros_like(pr)
    pr_bin[pr > threshold] = 1
    tp = torch.sum(gt * pr_bin)
    fp = torch.sum(pr_bin) - tp
    fn = torch.sum(gt) - tp
    return (2 * tp + eps) / (2 * tp + fn + fp + eps)


model = nn.Sequential(nn.Conv2d(3, 1, 3, padding=1), nn.Sigmoid())
x = torch.randn(2, 3, 16, 16)
y = (torch.rand(2, 1, 16, 16) > 0.5).float()
loss = 1 - f_score(model(x), y)
loss.backward()
