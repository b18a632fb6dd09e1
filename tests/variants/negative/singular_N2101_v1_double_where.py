# source: variant of 2101_jax_where_sqrt_branch_nan.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: double where inside the lambda
# mimics: 2101_v1_torch_lambda.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

f = lambda x: torch.where(x < 1., x, torch.sqrt(torch.where(x < 1., torch.ones_like(x), x)))
x = torch.tensor([0.0, 4.0], requires_grad=True)
f(x).sum().backward()
print(x.grad)
