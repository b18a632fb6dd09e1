# source: https://github.com/pytorch/pytorch/issues/52248
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: the branch a/0 is never selected by torch.where, yet autograd computes its gradient 0 * (1/0) and returns NaN for a
# expect: line 16 — the unselected branch a/0 still takes part in backward; its 0/0 gradient is NaN
# checked: ran, reproduces (grad is nan)

import torch

a = torch.randn(()).requires_grad_()
b = torch.tensor(False)
c = torch.ones(())

print(torch.where(b, a/0, c))
g = torch.autograd.grad(torch.where(b, a/0, c), a)
print(g)
