# source: https://github.com/pytorch/pytorch/issues/7617
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: a Linear layer is run through torch.utils.checkpoint with an input that does not require grad; the (reentrant) checkpoint output then does not require grad and the layer's weights get no gradient
# expect: line 15 — reentrant checkpoint with no input requiring grad returns an output without grad_fn; m's parameters are never trained
# checked: ran, reproduces (z1.requires_grad is False)

import torch
from torch.utils.checkpoint import checkpoint

m = torch.nn.Linear(4, 3)
x = torch.randn(10, 4)

z1 = checkpoint(lambda _: m(_), x)
print(z1.requires_grad)

z2 = m(x)
print(z2.requires_grad)
