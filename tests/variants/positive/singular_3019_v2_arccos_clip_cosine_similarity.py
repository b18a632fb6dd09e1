# source: variant of 3019_torch_angle_between_acos.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: angular loss on F.cosine_similarity, clipped with .clip(-1, 1) and passed to torch.arccos; identical prediction and target give cos == 1
# expect: line 16 — torch.arccos(cos.clip(-1, 1)) at cos == 1
# checked: ran (torch 2.13 CPU), reproduces (pred.grad row 0 = [nan, nan, nan])

import torch
import torch.nn.functional as F


class AngularLoss(torch.nn.Module):
    def forward(self, pred, target):
        cos = F.cosine_similarity(pred, target, dim=-1)
        angle = torch.arccos(cos.clip(-1, 1))
        return angle.mean()


pred = torch.tensor([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], requires_grad=True)
target = torch.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
AngularLoss()(pred, target).backward()
print(pred.grad)
