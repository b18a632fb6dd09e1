# source: https://github.com/pytorch/pytorch/issues/121133
# framework: torch
# family: E
# kind: float-equality-on-grads
# pitfall: a hand-derived tanh derivative (1 - tanh(t)**2) is compared with autograd's t.grad using ==; the two float32 computations round differently, so the "exact" check reports a mismatch and the user files a bug
# expect: line 18 — exact float equality between a manual gradient and t.grad; the values differ in the last bits (allclose is the right comparison)
# checked: ran, reproduces (torch 2.13 CPU: Exact=False, approx True); verbatim from the issue
import torch
import torch.nn.functional as F
print(f'torch={torch.__version__}')
t = torch.arange(1.0, 4.0)
t.requires_grad = True
t_tanh = torch.tanh(t)
t_tanh.sum().backward()
M1 = 1.0 - (t_tanh)**2 ## <--  sometime ago, this generated exact match with torch tanh autograd, but now does not.

def cmp(dt, t):
  ex1 = dt == t.grad
  ex = torch.all(ex1).item()
  cnt = ex1.sum().item()
  # torch.allclose returns a bool
  app = torch.allclose(dt, t.grad)
  print(f'comparing dt vs t.grad Exact={str(ex):5s} {cnt:5}/{t.numel():5} | approx {str(app):5s}')
print(M1)
print(t.grad, "SEEMS okay but it's not!")
cmp(M1, t)
