# source: https://github.com/pytorch/pytorch/issues/15506
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: the log is taken of the whole tensor (which contains 0) and only one entry is used afterwards (by indexing, or by .max() in the reporter's real code); the unused entry still gets the gradient 0 * inf = NaN
# expect: line 12 — a.log() is differentiated at 0 even though only a[-1] is used; the equivalent a[-1].log() (select first, then log) gives finite gradients, as the issue shows
# checked: ran, reproduces (a.grad = tensor([nan, 0., 0., 0.3333])); the reproduction verbatim

import torch

a = torch.arange(4, dtype=torch.float, requires_grad=True)
a.log()[-1].backward()
print(a.grad)
