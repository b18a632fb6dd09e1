# source: variant of 1091_diffgrad_previous_grad_alias.py
# framework: torch
# family: D
# kind: grad-kept-without-clone
# pitfall: per-example gradients for a gradient-similarity score are collected with grads.append(model.weight.grad.data); .data is the live buffer, so model.zero_grad(set_to_none=False) and each backward rewrite every stored entry, and all the "per-example" gradients end up equal to the last one
# expect: line 20 — .data of .grad is the same storage: append model.weight.grad.detach().clone()
# checked: ran, reproduces (all stored per-example gradients are identical; the pairwise cosine matrix is all ones)

import torch
import torch.nn as nn
import torch.nn.functional as F


def per_example_grads(model, xs, ys):
    grads = []
    for x, y in zip(xs, ys):
        model.zero_grad(set_to_none=False)
        loss = F.mse_loss(model(x[None]), y[None])
        loss.backward()
        grads.append(model.weight.grad.data.flatten())
    return torch.stack(grads)


model = nn.Linear(5, 1)
G = per_example_grads(model, torch.randn(4, 5), torch.randn(4, 1))
G = F.normalize(G, dim=1)
print(G @ G.T)
