# source: variant of 3019_torch_angle_between_acos.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: quaternion geodesic distance 2 * acos(|<q1, q2>|.clamp(max=1)); equal orientations give exactly 1 and an infinite derivative
# expect: line 14 — torch.acos(torch.abs(dot).clamp(max=1.0)) for equal quaternions
# checked: ran (torch 2.13 CPU), reproduces (q_pred.grad has -inf/nan)

import torch


def quat_geodesic(q_pred, q_gt):
    dot = (q_pred * q_gt).sum(-1)
    return 2 * torch.acos(torch.abs(dot).clamp(max=1.0))


q_gt = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]])
q_pred = q_gt.clone().requires_grad_(True)
quat_geodesic(q_pred, q_gt).mean().backward()
print(q_pred.grad)
