# source: https://github.com/pytorch/pytorch/issues/7335
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: a tensor is created with requires_grad=True and then moved with .cuda(); the variable now holds a non-leaf copy, so a.grad stays None after backward
# expect: line 12 — .cuda() after requires_grad=True returns a non-leaf copy; gradients accumulate into the unreachable original, a.grad is None
# checked: parse only (needs CUDA; the same happens with .to(torch.double) on CPU)

import numpy as np
import torch

a = torch.tensor(np.array([1., 2., 3.]), dtype=torch.float, requires_grad=True).cuda()
print(a.requires_grad, a.dtype)  # True torch.float32
b = torch.ones(3, device='cuda')
l = a@b
print(l.item())  # 6.0
l.backward()
print(a.grad)  # None
