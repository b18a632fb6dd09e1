# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: fixed twin: torch.stack keeps the graph
# expect: no finding
# checked: ran, no error (loss requires_grad: True)
import torch


def box_from_points(pts):
    cx = pts[:, 0].mean()
    cy = pts[:, 1].mean()
    w = pts[:, 0].max() - pts[:, 0].min()
    h = pts[:, 1].max() - pts[:, 1].min()
    return torch.stack([cx, cy, w, h])


pts = torch.rand(5, 2, requires_grad=True)
box = box_from_points(pts)
loss = (box - torch.tensor([0.5, 0.5, 1.0, 1.0])).abs().sum()
print("loss requires_grad:", loss.requires_grad)
loss.backward()
