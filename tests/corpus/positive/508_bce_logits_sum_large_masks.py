# source: synthetic
# family: E
# pitfall: binary segmentation loss reduces 16x512x512 per-pixel BCE terms with reduction="sum" in float32
# expect: line 15 — a float32 sum over ~4M terms accumulates rounding error and produces a huge, batch-size-dependent loss/gradient scale; prefer reduction="mean"

import torch
import torch.nn.functional as F
from torch import nn

seg = nn.Conv2d(3, 1, kernel_size=3, padding=1)
opt = torch.optim.SGD(seg.parameters(), lr=1e-3)


def seg_loss(logits, mask):
    return F.binary_cross_entropy_with_logits(logits, mask, reduction="sum")


for it in range(10):
    img = torch.randn(16, 3, 512, 512)
    mask = (torch.rand(16, 1, 512, 512) > 0.5).float()
    loss = seg_loss(seg(img), mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
