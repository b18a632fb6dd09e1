# source: variant of 3019_torch_angle_between_acos.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: acos of a cosine computed from a list comprehension of per-pair dot products, clamped in place with clamp_; parallel vectors give cos == 1
# expect: line 16 — torch.acos(cos) after cos.clamp_(-1, 1)
# checked: ran (torch 2.13 CPU), reproduces (vs.grad rows 0-1 = nan)

import torch
import torch.nn.functional as F

vs = torch.tensor([[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]], requires_grad=True)
unit = F.normalize(vs, dim=-1)
cos = torch.stack([unit[i] @ unit[i + 1] for i in range(len(unit) - 1)])
cos = cos.clamp(-1.0, 1.0)
angles = torch.acos(cos)
angles.sum().backward()
print(vs.grad)
