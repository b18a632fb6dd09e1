# source: variant of 1034_cdpn_argmax_coordinates_loss.py
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: keypoint coordinates are decoded from the heatmaps with .max(dim=2).indices (then % W and // W) and regressed with an L1 loss; the indices are integers with no gradient, so the loss has no grad_fn
# expect: line 20 — heatmaps.view(...).max(dim=2).indices is an argmax: the decoded coordinates are constants
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad)

import torch
import torch.nn as nn
import torch.nn.functional as F

K, H, W = 4, 16, 16
model = nn.Conv2d(3, K, 3, padding=1)
optimizer = torch.optim.Adam(model.parameters())
img = torch.randn(2, 3, H, W)
gt_xy = torch.rand(2, K, 2) * 16

heatmaps = model(img)
idx = heatmaps.view(2, K, -1).max(dim=2).indices
xs = (idx % W).float()
ys = (idx // W).float()
pred_xy = torch.stack([xs, ys], dim=-1)
loss = F.l1_loss(pred_xy, gt_xy)
optimizer.zero_grad()
loss.backward()
optimizer.step()
