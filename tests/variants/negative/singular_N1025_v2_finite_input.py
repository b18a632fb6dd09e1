# source: variant of 1025_where_cos_of_inf.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: no inf in the input: padding distance is a large finite value beyond the cutoff
# mimics: 1025_v2_function_method_cos.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def cutoff_fn(x):
    return torch.where(x < 1.0, x.cos(), torch.zeros_like(x))


x = torch.tensor([0.0, 1e4], requires_grad=True)
y = cutoff_fn(x)
print(torch.autograd.grad(y.sum(), x))
