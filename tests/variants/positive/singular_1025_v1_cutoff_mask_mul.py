# source: variant of 1025_where_cos_of_inf.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: cosine cutoff where distances are filled with inf for padded atoms and then masked by multiplication with (d < rc); cos' at inf is NaN and 0 * NaN = NaN
# expect: line 14 — 0.5 * (torch.cos(d * pi / rc) + 1) * (d < rc) with d = inf
# checked: ran (torch 2.13 CPU), reproduces (d.grad = [-0.56, -0.75, nan])

import math
import torch

d = torch.tensor([0.5, 1.2, math.inf], requires_grad=True)
rc = 2.0
cutoff = 0.5 * (torch.cos(d * math.pi / rc) + 1.0) * (d < rc).float()
cutoff.sum().backward()
print(d.grad)
