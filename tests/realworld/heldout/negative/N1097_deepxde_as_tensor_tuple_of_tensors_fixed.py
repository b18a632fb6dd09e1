# source: https://github.com/lululxvi/deepxde/pull/1318
# framework: torch
# family: A
# kind: tensor-rewrap
# negative: the fix adopted in the backend: a list/tuple of tensors is combined with torch.stack, which keeps the gradient path to each element
# mimics: positive/1097_deepxde_as_tensor_tuple_of_tensors.py
# expect: no finding
# checked: ran, no error

import torch

a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.], requires_grad=True)

# stack
ab = torch.stack((a, b))
ab.sum().backward()
print(f"a.grad = {a.grad}, b.grad = {b.grad}")
