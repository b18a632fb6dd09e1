# source: variant of 3019_torch_angle_between_acos.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: clamp strictly below 1
# mimics: 3019_v3_quaternion_abs_clamp.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def quat_geodesic(q_pred, q_gt):
    dot = (q_pred * q_gt).sum(-1)
    return 2 * torch.acos(torch.abs(dot).clamp(max=1.0 - 1e-7))


q_gt = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
q_pred = q_gt.clone().requires_grad_(True)
quat_geodesic(q_pred, q_gt).mean().backward()
print(q_pred.grad)
