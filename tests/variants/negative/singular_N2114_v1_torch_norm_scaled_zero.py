# source: variant of 2114_jax_norm_of_scaled_zero_vector.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: torch port of jax#26248: torch.linalg.norm(a * x) at the zero vector; torch's norm backward is 0 there, so the gradient w.r.t. a is 0, not NaN
# mimics: 2114_jax_norm_of_scaled_zero_vector.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient
import torch


def func1(a, x):
    return torch.linalg.norm(a * x)


a = torch.tensor(1.3, requires_grad=True)
x = torch.zeros(2)
func1(a, x).backward()
print(a.grad)
