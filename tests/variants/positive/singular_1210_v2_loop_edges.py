# source: variant of 1210_rotated_iou_enclosing_box_sqrt_coincident_corners.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: edge length as (p2 - p1).pow(2).sum(-1).sqrt() + eps inside a loop over polygon edges; a degenerate edge (two equal corners) gives NaN
# expect: line 18 — (p2 - p1).pow(2).sum(-1).sqrt() for a zero-length edge
# checked: ran (torch 2.13 CPU), reproduces (NaN in pred.grad (two equal corners))

import torch


def polygon_perimeter(corners):
    total = 0.0
    n = corners.shape[-2]
    for i in range(n):
        p1 = corners[..., i, :]
        p2 = corners[..., (i + 1) % n, :]
        total = total + (p2 - p1).pow(2).sum(-1).sqrt()
    return total


pred = torch.tensor([[0., 0.], [2., 0.], [2., 0.], [0., 3.]], requires_grad=True)
loss = polygon_perimeter(pred)
loss.backward()
print(torch.isnan(pred.grad).any().item())
