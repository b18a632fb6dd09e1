# source: https://github.com/pytorch/pytorch/issues/7335
# framework: torch
# family: D
# kind: nonleaf-grad-none
# negative: the fix from the answer: the tensor is created on the device with device="cuda", so it is the leaf that receives .grad
# mimics: positive/1037_tensor_requires_grad_then_cuda.py
# expect: no finding
# checked: parse only (needs CUDA; the same happens with .to(torch.double) on CPU)

import numpy as np
import torch

a = torch.tensor(np.array([1., 2., 3.]), dtype=torch.float, device="cuda", requires_grad=True)
print(a.requires_grad, a.dtype)  # True torch.float32
b = torch.ones(3, device='cuda')
l = a@b
print(l.item())  # 6.0
l.backward()
print(a.grad)  # None
