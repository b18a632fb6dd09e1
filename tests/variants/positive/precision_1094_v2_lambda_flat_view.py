# source: variant of 1094_forum_one_sided_fd_float32.py
# framework: torch
# family: E
# kind: fd-float32
# pitfall: the loss is a lambda over float32 tensors; the numerical gradient loops over flattened entries, bumps each by h=1e-3 through a view and divides the one-sided float32 difference by h
# expect: line 26 — one-sided finite difference of float32 loss values
# checked: ran, reproduces (float32 ratios 0.95-2.7; float64 gives 0.999-1.002)
import torch

torch.manual_seed(0)
target = torch.rand(64, 64)
f = lambda z: (((z + 1) / 2) - target).pow(2).mean()

x = torch.rand(64, 64, requires_grad=True)
f(x).backward()
analytic = x.grad.reshape(-1)

h = 1e-3
idx = torch.randint(0, x.numel(), (5,))
numeric = torch.zeros(5)
with torch.no_grad():
    f0 = f(x)
    for k, i in enumerate(idx.tolist()):
        xp = x.clone()
        xp.view(-1)[i] += h
        numeric[k] = (f(xp) - f0) / h

print(numeric / analytic[idx])
