# source: https://github.com/pytorch/pytorch/issues/13113
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: the variant posted in the same issue that works: move to the GPU first, then set `a.requires_grad = True`, so `a` is a leaf.
# expect: no finding
# checked: ran via _tools/fakecuda.py: prints tensor([0.6667, 1.3333, 2.0000]) (typo 'b.mean(0' fixed)
import torch
a = torch.tensor([1.,2.,3.])
a = a.cuda()
a.requires_grad = True
b = a** 2
c = b.mean(0)
c.backward()
print(a.grad)
