# source: https://github.com/pytorch/pytorch/issues/13886
# framework: torch
# family: E
# kind: float-equality-on-grads
# pitfall: the user checks autograd's derivative of 1/a against the formula -1/a**2 by subtracting and expecting exactly zero; the float32 results differ by one rounding step (5.96e-08) and this is reported as a wrong derivative
# expect: line 15 — expecting a.grad and -1/(a**2) to be bit-identical; a tolerance-based comparison is needed
# checked: ran, reproduces (for most random a the difference is a few ulps, e.g. -2.4e-07); verbatim from the issue, dtype = torch.float32 added (the dtype variable was not shown)
import numpy as np
import torch

dtype = torch.float32
a = torch.tensor(np.random.randn(), dtype=dtype, requires_grad=True)
loss = 1/a
loss.backward()
print(a.grad - (-1/(a**2)))
