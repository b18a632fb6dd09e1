# source: variant of 1160_hairmatte_image_gradient_loss_argmax.py
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# pitfall: a boundary loss helper takes the class indices with logits.max(1)[1]; the term computed from those indices has no gradient
# expect: line 14 — logits.max(1)[1] (argmax indices) is piecewise constant
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch
import torch.nn as nn
import torch.nn.functional as F


def boundary_loss(logits, target):
    pred = logits.max(1)[1].float()
    dx = (pred[:, :, 1:] - pred[:, :, :-1]).abs()
    tx = (target[:, :, 1:] - target[:, :, :-1]).abs().float()
    return F.l1_loss(dx, tx)


net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1))
image = torch.rand(2, 3, 16, 16)
mask = (torch.rand(2, 16, 16) > 0.5).long()
optimizer = torch.optim.Adam(net.parameters())
loss = boundary_loss(net(image), mask)
optimizer.zero_grad()
loss.backward()
optimizer.step()
