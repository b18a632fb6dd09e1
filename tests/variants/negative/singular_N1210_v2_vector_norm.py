# source: variant of 1210_rotated_iou_enclosing_box_sqrt_coincident_corners.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: torch.linalg.vector_norm for the edge length
# mimics: 1210_v2_loop_edges.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def polygon_perimeter(corners):
    total = 0.0
    n = corners.shape[-2]
    for i in range(n):
        p1 = corners[..., i, :]
        p2 = corners[..., (i + 1) % n, :]
        total = total + torch.linalg.vector_norm(p2 - p1, dim=-1)
    return total


pred = torch.tensor([[0., 0.], [2., 0.], [2., 0.], [0., 3.]], requires_grad=True)
loss = polygon_perimeter(pred)
loss.backward()
print(torch.isnan(pred.grad).any().item())
