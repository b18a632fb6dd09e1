# source: variant of 1030_sentence_transformers_euclidean_sqrt.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: floored before the root
# mimics: 1030_v12_dict_value.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch


def embed_pair(net, x1, x2):
    e1, e2 = net(x1), net(x2)
    return {"e1": e1, "e2": e2, "sq_dist": ((e1 - e2) ** 2).sum(dim=1)}


net = torch.nn.Linear(6, 3)
x = torch.randn(5, 6)
out = embed_pair(net, x, x.clone())
dist = torch.sqrt(out["sq_dist"].clamp(min=1e-12))
loss = dist.mean()
loss.backward()
print(torch.isnan(net.weight.grad).any().item())
