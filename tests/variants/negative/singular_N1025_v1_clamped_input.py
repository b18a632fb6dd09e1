# source: variant of 1025_where_cos_of_inf.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: the distance is clamped to the cutoff before the cos (the cos is then 0 exactly at rc)
# mimics: 1025_v1_cutoff_mask_mul.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import math
import torch

d = torch.tensor([0.5, 1.2, math.inf], requires_grad=True)
rc = 2.0
cutoff = 0.5 * (torch.cos(d.clamp(max=rc) * math.pi / rc) + 1.0) * (d < rc).float()
cutoff.sum().backward()
print(d.grad)
