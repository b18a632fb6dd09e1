# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: F.log_softmax instead of log(softmax)
# mimics: 1030_v8_log_softmax_underflow.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
import torch.nn.functional as F

logits = torch.tensor([[120.0, 0.0, -5.0], [1.0, 2.0, 0.5]], requires_grad=True)
target = torch.tensor([1, 0])
log_probs = F.log_softmax(logits, dim=1)
loss = F.nll_loss(log_probs, target)
loss.backward()
print(loss, logits.grad)
