# source: https://discuss.pytorch.org/t/how-to-use-the-backward-functions-for-multiple-losses/1826
# family: C
# pitfall: segmentation and depth losses share one encoder forward pass and are backpropagated with two separate .backward() calls
# expect: line 23 — the first backward freed the shared encoder graph; the second backward raises "Trying to backward through the graph a second time"

import torch
from torch import nn

encoder = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
seg_head, depth_head = nn.Conv2d(32, 5, 1), nn.Conv2d(32, 1, 1)
params = [*encoder.parameters(), *seg_head.parameters(), *depth_head.parameters()]
optimizer = torch.optim.Adam(params, lr=1e-3)
seg_crit, depth_crit = nn.CrossEntropyLoss(), nn.L1Loss()

for it in range(20):
    x = torch.randn(2, 3, 64, 64)
    y_seg, y_depth = torch.randint(0, 5, (2, 64, 64)), torch.rand(2, 1, 64, 64)
    feat = encoder(x)
    loss_seg = seg_crit(seg_head(feat), y_seg)
    loss_depth = depth_crit(depth_head(feat), y_depth)
    optimizer.zero_grad()
    loss_seg.backward()
    loss_depth.backward()
    optimizer.step()
