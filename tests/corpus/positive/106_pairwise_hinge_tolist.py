# source: synthetic
# family: A
# pitfall: pairwise ranking hinge loss written over Python lists (scores.tolist()) with a comprehension, then re-wrapped as a tensor with requires_grad=True
# expect: line 11 — .tolist() turns the ranker scores into floats; the hinge terms are constants and the ranker receives no gradient

import torch
import torch.nn as nn


def pairwise_hinge(scores, labels, margin=1.0):
    s = scores.tolist()
    terms = [max(0.0, margin - (s[i] - s[j]))
             for i in range(len(s)) for j in range(len(s)) if labels[i] > labels[j]]
    return torch.tensor(sum(terms) / max(len(terms), 1), requires_grad=True)


ranker = nn.Sequential(nn.Linear(48, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.SGD(ranker.parameters(), lr=0.05)

for query in range(200):
    docs = torch.randn(10, 48)
    relevance = torch.randint(0, 3, (10,))
    loss = pairwise_hinge(ranker(docs).squeeze(-1), relevance)
    opt.zero_grad()
    loss.backward()
    opt.step()
