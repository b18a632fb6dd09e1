# source: https://github.com/pytorch/pytorch/issues/8649
# framework: torch
# family: E
# kind: gradcheck-float32
# negative: the answer's fix: the input is double precision, and the same check passes
# mimics: positive/1049_gradcheck_stack_sum_float32.py
# expect: no finding
# checked: ran, no error

import torch


def f(bx):
    return torch.stack([x for x in bx]).sum()


bx = torch.rand(2, 3, dtype=torch.double, requires_grad=True)
ok = torch.autograd.gradcheck(f, (bx,))
print(ok)
