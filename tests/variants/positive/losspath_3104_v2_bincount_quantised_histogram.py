# source: variant of 3104_lyt_histc_histogram_loss.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: the histogram loss quantises the output to 256 levels and counts them with torch.bincount; the long cast and the counting have no derivative, so the loss has no gradient path to the model
# expect: line 15 — torch.bincount of the quantised prediction is a counting op with no gradient
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)

import torch
import torch.nn as nn


def hist256(img):
    levels = (img.clamp(0, 1) * 255).long().flatten()
    return torch.bincount(levels, minlength=256).float()


class HistogramLoss(nn.Module):
    def forward(self, pred, target):
        hp, ht = hist256(pred), hist256(target)
        return torch.mean(torch.abs(hp / hp.sum() - ht / ht.sum()))


model = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.Sigmoid())
optimizer = torch.optim.Adam(model.parameters())
criterion = HistogramLoss()
x, y = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
loss = criterion(model(x), y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
