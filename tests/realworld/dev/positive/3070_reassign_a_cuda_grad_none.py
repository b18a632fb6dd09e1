# source: https://github.com/pytorch/pytorch/issues/13113
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: `a = a.cuda()` rebinds the name to a non-leaf copy of the requires_grad leaf, so `a.grad` is None after backward.
# expect: line 14 — `print(a.grad)` reads .grad of the rebound non-leaf `a` (None)
# checked: ran via _tools/fakecuda.py, reproduces: prints None + non-leaf warning (typo 'b.mean(0' in the post fixed to 'b.mean(0)')
import torch
a = torch.tensor([1.,2.,3.],requires_grad = True)
a = a.cuda()
b = a** 2
c = b.mean(0)
c.backward()
print(a.grad)
