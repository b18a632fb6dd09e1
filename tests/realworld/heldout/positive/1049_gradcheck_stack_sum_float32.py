# source: https://github.com/pytorch/pytorch/issues/8649
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: torch.autograd.gradcheck of a function built from torch.stack(...).sum() is called on a float32 torch.rand input and reported as a failure of torch.stack / torch.cat
# expect: line 17 — single-precision input to gradcheck: the default eps is too small to show up in a float32 sum, so the check fails; use dtype=torch.float64
# checked: ran, reproduces (fails in float32, passes in float64)

import torch


def f(bx):
    return torch.stack([x for x in bx]).sum()


bx = torch.rand(2, 3, requires_grad=True)
ok = torch.autograd.gradcheck(f, (bx,))
print(ok)
