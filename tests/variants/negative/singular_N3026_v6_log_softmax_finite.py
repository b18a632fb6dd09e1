# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: masked with a large finite negative and p * log_softmax (finite), no where needed
# mimics: 3026_v6_where_p_gt_0.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

logits = torch.tensor([[0.5, 1.0, -1.0, 0.0]], requires_grad=True)
mask = torch.tensor([[True, True, False, True]])
masked = logits.masked_fill(~mask, -1e4)
p = torch.softmax(masked, dim=-1)
plogp = p * torch.log_softmax(masked, dim=-1)
entropy = -plogp.sum(-1)
entropy.mean().backward()
print(entropy, logits.grad)
