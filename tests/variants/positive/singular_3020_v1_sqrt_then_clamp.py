# source: variant of 3020_torch_inpainting_sqrt_then_max.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: patch norm floored after the root with .clamp(min=eps): sqrt(sum(w**2)).clamp(min=1e-4); an all-zero patch has sqrt' = inf and clamp's 0 derivative, 0 * inf = NaN
# expect: line 18 — torch.sqrt(...).clamp(min=1e-4) for an all-zero patch
# checked: ran (torch 2.13 CPU), reproduces (NaN in w.grad (all-zero patch))

import torch
import torch.nn.functional as F

torch.manual_seed(0)
w = torch.randn(4, 3, 3, 3)
w[0] = 0.0
w.requires_grad_(True)
xi = torch.randn(1, 3, 6, 6)

norm = torch.sqrt(w.pow(2).sum(dim=[1, 2, 3], keepdim=True)).clamp(min=1e-4)
yi = F.conv2d(xi, w / norm, padding=1)
yi.sum().backward()
print(torch.isnan(w.grad).any().item())
