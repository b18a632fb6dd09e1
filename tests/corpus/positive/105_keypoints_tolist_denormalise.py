# source: synthetic
# family: A
# pitfall: predicted keypoints are converted to a Python list with .tolist() to rescale them to pixels, then rebuilt with torch.tensor
# expect: line 12 — .tolist() drops the autograd history of the regressor output; backward() raises "element 0 of tensors does not require grad"

import torch
import torch.nn as nn
import torch.nn.functional as F


def to_pixels(pred, width, height):
    pts = pred.view(-1, 2).tolist()
    return torch.tensor([[x * width, y * height] for x, y in pts])


model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 64 * 64, 128), nn.ReLU(), nn.Linear(128, 17 * 2), nn.Sigmoid())
opt = torch.optim.Adam(model.parameters(), lr=1e-4)

img = torch.randn(4, 3, 64, 64)
gt_px = torch.rand(4 * 17, 2) * 256

pred_px = to_pixels(model(img), 256, 256)
loss = F.smooth_l1_loss(pred_px, gt_px)
opt.zero_grad()
loss.backward()
opt.step()
