# source: variant of 3020_torch_inpainting_sqrt_then_max.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: ContextualAttention method: torch.clamp(wi.pow(2).sum(...).sqrt(), min=escape_NaN) inside a module loop over the batch; the masked all-zero patch gives NaN
# expect: line 22 — torch.clamp((wi ** 2).sum(...).sqrt(), min=self.escape_NaN)
# checked: ran (torch 2.13 CPU), reproduces (NaN in w.grad (all-zero patch))

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
            max_wi = torch.clamp((wi ** 2).sum(dim=(1, 2, 3), keepdim=True).sqrt(), min=self.escape_NaN)
            out.append(F.conv2d(xi, wi / max_wi, padding=1))
        return torch.cat(out, dim=0)


torch.manual_seed(0)
w = torch.randn(1, 4, 3, 3, 3)
w[:, 0] = 0.0
w.requires_grad_(True)
f = torch.randn(1, 3, 6, 6)
ContextualAttention()(f, w).sum().backward()
print(torch.isnan(w.grad).any().item())
