# source: https://github.com/pytorch/pytorch/issues/23395
# family: E
# pitfall: entropy of sparse (ReLU-normalised) probabilities guards p*log(p) with torch.where(p > 0, ...), but zeros still reach log in the untaken branch
# expect: line 18 — torch.where does not stop the gradient of log(0) = -inf: the masked branch contributes 0 * inf = NaN to the gradient

import torch
import torch.nn as nn

scorer = nn.Linear(16, 8)


def sparse_probs(x):
    s = torch.relu(scorer(x))
    return s / (s.sum(-1, keepdim=True) + 1e-6)


def entropy(p):
    plogp = torch.where(p > 0, p * torch.log(p), torch.zeros_like(p))
    return -plogp.sum(-1)


x = torch.randn(32, 16)
loss = entropy(sparse_probs(x)).mean()
loss.backward()
print(scorer.weight.grad.isnan().any())  # tensor(True)
