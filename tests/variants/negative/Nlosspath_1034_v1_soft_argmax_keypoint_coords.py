# source: variant of 1034_cdpn_argmax_coordinates_loss.py
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# negative: fixed twin: soft-argmax (softmax-weighted coordinates) instead of the hard indices
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn
import torch.nn.functional as F

K, H, W = 4, 16, 16
model = nn.Conv2d(3, K, 3, padding=1)
optimizer = torch.optim.Adam(model.parameters())
img = torch.randn(2, 3, H, W)
gt_xy = torch.rand(2, K, 2) * 16

heatmaps = model(img)
prob = heatmaps.view(2, K, -1).softmax(dim=2)
grid = torch.arange(H * W)
xs = (prob * (grid % W).float()).sum(-1)
ys = (prob * (grid // W).float()).sum(-1)
pred_xy = torch.stack([xs, ys], dim=-1)
loss = F.l1_loss(pred_xy, gt_xy)
optimizer.zero_grad()
loss.backward()
optimizer.step()
