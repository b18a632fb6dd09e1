# source: synthetic
# family: D
# pitfall: feature-visualisation loop optimises an input image (a leaf with requires_grad=True) and clamps it to [0, 1] in place after each step
# expect: line 23 — clamp_() on a leaf that requires grad outside torch.no_grad() raises "a leaf Variable that requires grad is being used in an in-place operation"

import torch
import torch.nn as nn

cnn = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Conv2d(16, 32, 3), nn.ReLU()).eval()
for p in cnn.parameters():
    p.requires_grad_(False)

img = torch.rand(1, 3, 64, 64, requires_grad=True)
opt = torch.optim.Adam([img], lr=0.05)
channel = 7

for step in range(200):
    opt.zero_grad()
    act = cnn(img)[0, channel]
    loss = -act.mean()
    loss.backward()
    opt.step()
    img.clamp_(0, 1)
