# source: variant of 3019_torch_angle_between_acos.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: angle via atan2(|u x v|, u.v), differentiable at parallel vectors
# mimics: 3019_v1_torch_acos_clamp.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def angle_between(u, v):
    cross = torch.linalg.cross(u, v, dim=-1)
    return torch.atan2(torch.linalg.vector_norm(cross, dim=-1), (u * v).sum(-1))


v0 = torch.tensor([[1.0, 0.0, 0.0]], requires_grad=True)
v1 = torch.tensor([[3.0, 0.0, 0.0]], requires_grad=True)
angle_between(v0, v1).sum().backward()
print(v0.grad, v1.grad)
