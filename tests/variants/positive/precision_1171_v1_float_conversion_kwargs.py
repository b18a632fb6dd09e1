# source: variant of 1171_affine_grid_gradcheck_float32.py
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: theta is built from numpy (float64) but converted with .float() before gradcheck, so affine_grid is gradchecked in single precision
# expect: line 20 — gradcheck with the float32 theta
# checked: ran, reproduces (GradcheckError Jacobian mismatch in float32; passes without .float())
import numpy as np
import torch
import torch.nn.functional as F

grid_sz = 2


def stn_grid(v):
    return F.affine_grid(v, [1, 1, grid_sz, grid_sz], align_corners=False)


theta = torch.from_numpy(np.random.rand(1, 2, 3)).float().requires_grad_(True)
print(torch.autograd.gradcheck(stn_grid, inputs=(theta,)))
