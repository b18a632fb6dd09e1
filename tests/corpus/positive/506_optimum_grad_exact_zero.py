# source: synthetic
# family: E
# pitfall: sanity check that the cross-entropy gradient vanishes at the analytic optimum (logits = log q) uses == 0
# expect: line 15 — softmax(log q) - q is ~1e-8, not 0, in floating point: the exact == 0 assertion fails although the math is right

import torch
import torch.nn.functional as F

q = torch.tensor([0.7, 0.2, 0.1])
logits = torch.log(q).requires_grad_(True)
loss = -(q * F.log_softmax(logits, dim=-1)).sum()
loss.backward()

print(logits.grad)
assert (logits.grad == 0).all(), "gradient should vanish at the optimum"
