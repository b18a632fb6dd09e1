# source: https://github.com/pytorch/pytorch/issues/18287
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: a cutoff function uses torch.where(x < 1.0, torch.cos(x), zeros) and an input of inf; the unselected cos(inf) branch gives a NaN gradient
# expect: line 13 — cos is differentiated at x = inf even though the condition selects zeros there, so the gradient is NaN
# checked: ran, reproduces (grad is [-0., nan])

import torch
import math

x = torch.tensor([0.0, math.inf], requires_grad=True)
y = torch.where(x < 1.0, torch.cos(x), torch.zeros_like(x))

print(torch.autograd.grad(y.sum(), x))
