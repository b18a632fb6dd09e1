# source: variant of 1210_rotated_iou_enclosing_box_sqrt_coincident_corners.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: the maintainer's fix: eps inside the root
# mimics: 1210_v1_sqrt_dx2_dy2.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def point_line_distance(p1, p2, q):
    dx = p2[..., 0] - p1[..., 0]
    dy = p2[..., 1] - p1[..., 1]
    cross = dy * q[..., 0] - dx * q[..., 1] + p2[..., 0] * p1[..., 1] - p2[..., 1] * p1[..., 0]
    length = torch.sqrt(dx ** 2 + dy ** 2 + 1e-14)
    return cross / length


corners = torch.tensor([[0., 0.], [2., 0.], [2., 3.], [0., 0.]], requires_grad=True)
d = point_line_distance(corners[0], corners[3], corners[2])
d2 = point_line_distance(corners[0], corners[1], corners[2])
(d.abs() + d2.abs()).backward()
print(torch.isnan(corners.grad).any().item())
