# source: https://github.com/pytorch/pytorch/issues/15506
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: the variant the issue gives as behaving as expected: the entry is selected first and then logged, a[-1].log(), so the zero entry is never differentiated through log
# mimics: positive/1236_log_then_index_max_nan_grad.py
# expect: no finding
# checked: ran, no NaN in the gradient

import torch

a = torch.arange(4, dtype=torch.float, requires_grad=True)
a[-1].log().backward()
print(a.grad)
