# source: synthetic
# family: A
# pitfall: Dice loss helper reuses a NumPy metric by calling .detach().cpu().numpy() on the probabilities, then re-wraps the score with requires_grad=True
# expect: line 17 — probabilities leave autograd through .numpy(); the re-wrapped loss is a fresh leaf, so the segmentation net never gets gradients

import numpy as np
import torch
import torch.nn as nn


def dice_coef(pred_np, target_np, smooth=1.0):
    inter = (pred_np * target_np).sum()
    return (2.0 * inter + smooth) / (pred_np.sum() + target_np.sum() + smooth)


def dice_loss(logits, target):
    probs = torch.sigmoid(logits).detach().cpu().numpy()
    score = dice_coef(probs, target.cpu().numpy())
    return torch.tensor(1.0 - score, requires_grad=True)


net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)

for epoch in range(5):
    img = torch.randn(4, 1, 64, 64)
    mask = (torch.rand(4, 1, 64, 64) > 0.7).float()
    loss = dice_loss(net(img), mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item(), net[0].weight.grad)
