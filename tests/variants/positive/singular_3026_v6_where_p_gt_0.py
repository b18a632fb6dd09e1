# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: 'safe' entropy torch.where(p > 0, p * torch.log(p), torch.zeros_like(p)); the forward is masked but d(p log p)/dp = log p + 1 = -inf at p == 0, times 0 = NaN
# expect: line 14 — torch.where(p > 0, p * torch.log(p), zeros) at p == 0
# checked: ran (torch 2.13 CPU), reproduces (entropy finite (1.02) but logits.grad = [nan, nan, 0, nan])

import torch

logits = torch.tensor([[0.5, 1.0, -1.0, 0.0]], requires_grad=True)
mask = torch.tensor([[True, True, False, True]])
p = torch.softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)
plogp = torch.where(p > 0, p * torch.log(p), torch.zeros_like(p))
entropy = -plogp.sum(-1)
entropy.mean().backward()
print(entropy, logits.grad)
