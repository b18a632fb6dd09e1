# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: finite masked logit and the entropy from log_softmax without sanitising
# mimics: 3026_v3_where_isnan.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
import torch.nn.functional as F

logits = torch.tensor([[0.0, 1.0, -1e9]], requires_grad=True)
logp = F.log_softmax(logits, dim=-1)
plogp = logp.exp() * logp
entropy = -plogp.sum(-1)
entropy.sum().backward()
print(logits.grad)
