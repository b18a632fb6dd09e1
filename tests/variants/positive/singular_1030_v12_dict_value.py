# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: squared distances returned in a dict by a helper and square-rooted by the loss: torch.sqrt(out['sq_dist']); identical pairs give NaN
# expect: line 20 — torch.sqrt(out["sq_dist"]) at 0
# checked: ran (torch 2.13 CPU), reproduces (NaN in net.weight.grad)

import torch


def embed_pair(net, x1, x2):
    e1, e2 = net(x1), net(x2)
    return {"e1": e1, "e2": e2, "sq_dist": ((e1 - e2) ** 2).sum(dim=1)}


net = torch.nn.Linear(6, 3)
x = torch.randn(5, 6)
out = embed_pair(net, x, x.clone())
dist = torch.sqrt(out["sq_dist"])
loss = dist.mean()
loss.backward()
print(torch.isnan(net.weight.grad).any().item())
