# source: variant of 3020_torch_inpainting_sqrt_then_max.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: torch.linalg.vector_norm then clamp (torch's norm has a 0 gradient at 0)
# mimics: 3020_v2_module_loop_clamp.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
import torch.nn.functional as F
from torch import nn


class ContextualAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.escape_NaN = 1e-4

    def forward(self, f, patches):
        out = []
        for xi, wi in zip(f.split(1, dim=0), patches):
            max_wi = torch.clamp(torch.linalg.vector_norm(wi, dim=(1, 2, 3), keepdim=True), min=self.escape_NaN)
            out.append(F.conv2d(xi, wi / max_wi, padding=1))
        return torch.cat(out, dim=0)


torch.manual_seed(0)
w = torch.randn(1, 4, 3, 3, 3)
w[:, 0] = 0.0
w.requires_grad_(True)
f = torch.randn(1, 3, 6, 6)
ContextualAttention()(f, w).sum().backward()
print(torch.isnan(w.grad).any().item())
