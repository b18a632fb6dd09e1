# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: classification loss as -torch.log(F.softmax(logits)) picked at the target; a confident wrong logit makes the target probability underflow to exactly 0, so log' = inf and the gradient is NaN
# expect: line 14 — torch.log(F.softmax(logits, dim=1)) with an underflowing probability
# checked: ran (torch 2.13 CPU), reproduces (loss = inf, logits.grad row 0 = [nan, nan, nan] (target prob underflows to 0))

import torch
import torch.nn.functional as F

logits = torch.tensor([[120.0, 0.0, -5.0], [1.0, 2.0, 0.5]], requires_grad=True)
target = torch.tensor([1, 0])
log_probs = torch.log(F.softmax(logits, dim=1))
loss = F.nll_loss(log_probs, target)
loss.backward()
print(loss, logits.grad)
