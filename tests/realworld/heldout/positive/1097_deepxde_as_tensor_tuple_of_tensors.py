# source: https://github.com/lululxvi/deepxde/pull/1318
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: the backend's as_tensor turns a tuple of tensors into one tensor with torch.as_tensor, which copies the values into a new tensor without history; setting requires_grad on it afterwards does not reconnect it, so a.grad and b.grad stay None
# expect: line 15 — torch.as_tensor((a, b)) builds a fresh tensor from the values; the gradient never reaches a and b (use torch.stack)
# checked: ran, reproduces (a.grad and b.grad are None)

import torch

a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.], requires_grad=True)

# as_tensor
ab = torch.as_tensor((a, b))
ab.requires_grad = True
ab.sum().backward()
print(f"a.grad = {a.grad}, b.grad = {b.grad}")
