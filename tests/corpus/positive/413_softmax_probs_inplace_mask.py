# source: https://discuss.pytorch.org/t/when-would-the-error-one-of-the-variables-needed-for-gradient-computation-has-been-modified-occur/11976
# family: D
# pitfall: after F.softmax, the padding-class column of the probabilities is zeroed with an in-place item assignment
# expect: line 16 — softmax saves its output for backward; writing into probs in place bumps its version and backward raises "modified by an inplace operation"

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0
tagger = nn.Sequential(nn.Embedding(1000, 64), nn.Linear(64, 12))


def tag_loss(tokens, tags):
    probs = F.softmax(tagger(tokens), dim=-1)
    probs[..., PAD] = 0.0
    probs = probs / probs.sum(-1, keepdim=True)
    return F.nll_loss(torch.log(probs + 1e-9).view(-1, 12), tags.view(-1))


tokens = torch.randint(1, 1000, (8, 20))
tags = torch.randint(1, 12, (8, 20))
loss = tag_loss(tokens, tags)
loss.backward()
