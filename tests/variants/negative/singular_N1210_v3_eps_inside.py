# source: variant of 1210_rotated_iou_enclosing_box_sqrt_coincident_corners.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: sqrt with eps inside instead of hypot
# mimics: 1210_v3_hypot.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def point_line_distance_range(lines, points):
    x1, y1 = lines[..., 0:1, 0], lines[..., 0:1, 1]
    x2, y2 = lines[..., 1:2, 0], lines[..., 1:2, 1]
    x, y = points[..., 0], points[..., 1]
    den = (y2 - y1) * x - (x2 - x1) * y + x2 * y1 - y2 * x1
    num = torch.sqrt((x2 - x1) ** 2 + (y2 - y1) ** 2 + 1e-14)
    d = den / num
    return d.max(dim=-1)[0] - d.min(dim=-1)[0]


corners = torch.tensor([[0., 0.], [2., 0.], [2., 3.], [0., 3.],
                        [0., 0.], [2., 0.], [2., 3.], [0., 3.]], requires_grad=True)
lines = corners[torch.tensor([[0, 4], [0, 1]])]          # (2, 2, 2): the first candidate edge is degenerate
points = corners[torch.tensor([[1, 2, 3], [2, 3, 5]])]   # (2, 3, 2)
point_line_distance_range(lines, points).sum().backward()
print(torch.isnan(corners.grad).any().item())
