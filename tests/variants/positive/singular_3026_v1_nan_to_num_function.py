# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: entropy p * log(p) over softmax of -inf-masked logits, sanitised with torch.nan_to_num (function form); the 0 * -inf product still back-propagates NaN
# expect: line 16 — torch.nan_to_num(probs * log_probs, nan=0.0) after the fact
# checked: ran (torch 2.13 CPU), reproduces (logits.grad row with the -inf logit = [nan, nan, nan])

import torch
import torch.nn.functional as F


def entropy(logits):
    probs = F.softmax(logits, dim=-1)
    log_probs = F.log_softmax(logits, dim=-1)
    return -torch.nan_to_num(probs * log_probs, nan=0.0).sum(-1)


logits = torch.tensor([[0.0, 1.0, float("-inf")], [2.0, 0.5, -1.0]], requires_grad=True)
entropy(logits).sum().backward()
print(logits.grad)
