# source: variant of 3026_torch_entropy_nan_to_num_after_the_fact.py
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: the masked vocab entry is a large finite negative logit instead of -inf, so log_softmax is finite and p * log p needs no sanitising (torch.xlogy/entr alone would still give NaN for a -inf logit)
# mimics: 3026_v1_nan_to_num_function.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
import torch.nn.functional as F


def entropy(logits):
    probs = F.softmax(logits, dim=-1)
    log_probs = F.log_softmax(logits, dim=-1)
    return -(probs * log_probs).sum(-1)


logits = torch.tensor([[0.0, 1.0, -1e9], [2.0, 0.5, -1.0]], requires_grad=True)
entropy(logits).sum().backward()
print(logits.grad)
