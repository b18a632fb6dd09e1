# source: variant of 2203_jax_normalize_by_linalg_norm_zero_row.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: torch port of a normalize helper x / torch.linalg.norm(x, dim=axis, keepdim=True) without eps; a zero row gives 0/0 NaN
# expect: line 13 — x / torch.linalg.norm(x, ...) for an all-zero row
# checked: ran (torch 2.13 CPU), reproduces (NaN in x.grad (all-zero rows))

import torch


def normalize(x, dim=-1):
    return x / torch.linalg.norm(x, dim=dim, keepdim=True)


x = torch.zeros(2, 3, 4)
x[0, 0] = torch.randn(4)
x.requires_grad_(True)
q = normalize(x)
attn = torch.einsum("...qd,...kd->...qk", q, q)
attn.mean().backward()
print(torch.isnan(x.grad).any().item())
