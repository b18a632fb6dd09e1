# source: variant of 3070_reassign_a_cuda_grad_none.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: the leaf is created with requires_grad=True and converted in the same expression (`.to(dtype)`), so the bound name is a non-leaf and its .grad is None
# expect: line 15 — w.grad read on the non-leaf result of .to(...)
# checked: ran, reproduces (prints None)
import torch

dtype = torch.float64
w = torch.randn(3, requires_grad=True).to(dtype)
x = torch.randn(5, 3, dtype=dtype)
loss = (x @ w).pow(2).mean()
loss.backward()
print(w.grad)
