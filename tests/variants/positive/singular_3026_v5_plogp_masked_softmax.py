# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: entropy of a masked softmax written as -(p * torch.log(p)).sum(-1); masked entries have p == 0 exactly and 0 * log(0) = 0 * -inf is NaN in value and gradient
# expect: line 14 — -(p * torch.log(p)).sum(-1) with p == 0
# checked: ran (torch 2.13 CPU), reproduces (entropy = nan and logits.grad = [nan, nan, 0, nan])

import torch

logits = torch.tensor([[0.5, 1.0, -1.0, 0.0]], requires_grad=True)
mask = torch.tensor([[True, True, False, True]])
p = torch.softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)
entropy = -(p * torch.log(p)).sum(-1)
entropy.mean().backward()
print(entropy, logits.grad)
