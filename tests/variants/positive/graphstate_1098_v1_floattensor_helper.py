# source: variant of 1098_torch_tensor_from_indexed_elements.py
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: a geometry helper packs scalar tensors computed from the input with torch.FloatTensor([...]); the values are copied and the gradient to the input is lost
# expect: line 16 — torch.FloatTensor([cx, cy, w, h]) rebuilds the box from values, dropping the graph
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn)
import torch


def box_from_points(pts):
    cx = pts[:, 0].mean()
    cy = pts[:, 1].mean()
    w = pts[:, 0].max() - pts[:, 0].min()
    h = pts[:, 1].max() - pts[:, 1].min()
    return torch.FloatTensor([cx, cy, w, h])


pts = torch.rand(5, 2, requires_grad=True)
box = box_from_points(pts)
loss = (box - torch.tensor([0.5, 0.5, 1.0, 1.0])).abs().sum()
print("loss requires_grad:", loss.requires_grad)
loss.backward()
