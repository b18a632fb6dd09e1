# source: variant of 1066_pyhessian_backward_create_graph.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: a power-iteration helper for the top Hessian eigenvalue gets the first-order gradients with loss.backward(create_graph=True) and reads them from p.grad; the parameters and their graph-carrying .grad form a reference cycle on every call
# expect: line 17 — backward(create_graph=True) keeps the double-backward graph attached to every parameter's .grad; torch.autograd.grad(loss, params, create_graph=True) avoids the cycle
# checked: ran, reproduces (the "reference cycle" UserWarning; p.grad carries a grad_fn after the call)

import torch
import torch.nn as nn


def top_eigenvalue(model, criterion, inputs, targets, iters=5):
    params = [p for p in model.parameters() if p.requires_grad]
    model.zero_grad()
    loss = criterion(model(inputs), targets)
    loss.backward(create_graph=True)
    grads = [p.grad for p in params]
    v = [torch.randn_like(p) for p in params]
    eig = None
    for _ in range(iters):
        norm = torch.sqrt(sum((vi * vi).sum() for vi in v))
        v = [vi / norm for vi in v]
        Hv = torch.autograd.grad(grads, params, grad_outputs=v, retain_graph=True)
        eig = sum((h * vi).sum() for h, vi in zip(Hv, v)).item()
        v = [h.detach() for h in Hv]
    return eig


model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
print(top_eigenvalue(model, nn.MSELoss(), torch.randn(16, 4), torch.randn(16, 1)))
print(model[0].weight.grad.grad_fn)
