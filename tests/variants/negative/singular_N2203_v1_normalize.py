# source: variant of 2203_jax_normalize_by_linalg_norm_zero_row.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: F.normalize (eps floor on the norm)
# mimics: 2203_v1_torch_linalg_norm_divide.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def normalize(x, dim=-1):
    return torch.nn.functional.normalize(x, dim=dim)


x = torch.zeros(2, 3, 4)
x[0, 0] = torch.randn(4)
x.requires_grad_(True)
q = normalize(x)
attn = torch.einsum("...qd,...kd->...qk", q, q)
attn.mean().backward()
print(torch.isnan(x.grad).any().item())
