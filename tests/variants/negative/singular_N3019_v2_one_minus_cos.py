# source: variant of 3019_torch_angle_between_acos.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: 1 - cos loss instead of the angle
# mimics: 3019_v2_arccos_clip_cosine_similarity.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
import torch.nn.functional as F


class AngularLoss(torch.nn.Module):
    def forward(self, pred, target):
        cos = F.cosine_similarity(pred, target, dim=-1)
        angle = 1 - cos
        return angle.mean()


pred = torch.tensor([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], requires_grad=True)
target = torch.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
AngularLoss()(pred, target).backward()
print(pred.grad)
