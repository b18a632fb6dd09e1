# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: entropy product sanitised with torch.where(torch.isnan(plogp), torch.zeros_like(plogp), plogp); the forward is fixed but the gradient through 0 * -inf is NaN
# expect: line 15 — torch.where(torch.isnan(plogp), zeros, plogp)
# checked: ran (torch 2.13 CPU), reproduces (logits.grad = [nan, nan, nan])

import torch
import torch.nn.functional as F

logits = torch.tensor([[0.0, 1.0, float("-inf")]], requires_grad=True)
logp = F.log_softmax(logits, dim=-1)
plogp = logp.exp() * logp
plogp = torch.where(torch.isnan(plogp), torch.zeros_like(plogp), plogp)
entropy = -plogp.sum(-1)
entropy.sum().backward()
print(logits.grad)
