# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: entropy sanitised with the old NaN idiom ent[ent != ent] = 0; the 0 * log(0) product still back-propagates NaN
# expect: line 14 — ent[ent != ent] = 0 after p * log(p)
# checked: ran (torch 2.13 CPU), reproduces (logits.grad = [nan, nan, nan, nan])

import torch

logits = torch.tensor([[0.5, 1.0, float("-inf"), 0.0]], requires_grad=True)
p = torch.softmax(logits, dim=-1)
ent = -(p * torch.log(p))
ent[ent != ent] = 0
ent.sum().backward()
print(logits.grad)
