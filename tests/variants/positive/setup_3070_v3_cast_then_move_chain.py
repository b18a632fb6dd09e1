# source: variant of 3070_reassign_a_cuda_grad_none.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: the requires_grad leaf is cast and moved in one chain (`.double().to(device)`); the name holds the non-leaf result, so a.grad is None
# expect: line 15 — `print(a.grad)` reads .grad of the non-leaf `a`
# checked: ran, reproduces (prints None + non-leaf warning)
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
a = torch.tensor([1., 2., 3.], requires_grad=True).double().to(device)
b = a ** 2
c = b.mean(0)
c.backward()
print(a.grad)
