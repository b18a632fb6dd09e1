# source: variant of 3019_torch_angle_between_acos.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: angle between vectors as torch.acos(torch.clamp(cos, -1, 1)) (function form); parallel vectors give cos == 1 and an infinite acos derivative
# expect: line 14 — torch.acos(torch.clamp(cos, -1.0, 1.0)) at cos == 1
# checked: ran (torch 2.13 CPU), reproduces (v0.grad = v1.grad = [nan, nan, nan])

import torch


def angle_between(u, v):
    cos = (u * v).sum(-1) / (u.norm(dim=-1) * v.norm(dim=-1))
    return torch.acos(torch.clamp(cos, -1.0, 1.0))


v0 = torch.tensor([[1.0, 0.0, 0.0]], requires_grad=True)
v1 = torch.tensor([[3.0, 0.0, 0.0]], requires_grad=True)
angle_between(v0, v1).sum().backward()
print(v0.grad, v1.grad)
