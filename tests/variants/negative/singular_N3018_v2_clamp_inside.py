# source: variant of 3018_torch_acos_clamp_cos2theta.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: clamp strictly inside
# mimics: 3018_v2_geodesic_rotation.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def geodesic_loss(R_pred, R_gt):
    R = torch.bmm(R_pred.transpose(1, 2), R_gt)
    trace = R.diagonal(dim1=-2, dim2=-1).sum(-1)
    cos = (trace - 1) / 2
    theta = torch.acos(cos.clamp(-1 + 1e-6, 1 - 1e-6))
    return theta.mean()


R_pred = torch.eye(3).repeat(2, 1, 1).requires_grad_(True)
R_gt = torch.eye(3).repeat(2, 1, 1)
geodesic_loss(R_pred, R_gt).backward()
print(R_pred.grad)
