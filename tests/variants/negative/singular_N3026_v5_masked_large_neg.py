# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: masked logits filled with a large finite negative and log_softmax
# mimics: 3026_v5_plogp_masked_softmax.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch

logits = torch.tensor([[0.5, 1.0, -1.0, 0.0]], requires_grad=True)
mask = torch.tensor([[True, True, False, True]])
logp = torch.log_softmax(logits.masked_fill(~mask, -1e4), dim=-1)
entropy = -(logp.exp() * logp).sum(-1)
entropy.mean().backward()
print(entropy, logits.grad)
