# source: variant of 3104_lyt_histc_histogram_loss.py
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# negative: fixed twin: a differentiable soft histogram (Gaussian kernel per bin) replaces bincount
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn


def hist256(img, bins=32, sigma=0.02):
    centers = torch.linspace(0, 1, bins)
    return torch.exp(-((img.flatten()[:, None] - centers[None, :]) ** 2) / (2 * sigma ** 2)).sum(0)


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
