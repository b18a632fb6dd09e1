# source: variant of 1020_where_sqrt_inactive_branch.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: sqrt branch computed into a variable, then replaced by masked_fill where the input is not positive; masked_fill's zero cotangent times sqrt' (NaN/inf) is NaN
# expect: line 12 — torch.sqrt(x).masked_fill(x <= 0, 0.0) on negative/zero x
# checked: ran (torch 2.13 CPU), reproduces (x.grad = [nan, nan, 0.25])

import torch

x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
root = torch.sqrt(x).masked_fill(x <= 0, 0.0)
root.sum().backward()
print(x.grad)
