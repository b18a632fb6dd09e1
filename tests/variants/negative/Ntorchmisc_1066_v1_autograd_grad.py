# source: negative twin of a variant of 1066_pyhessian_backward_create_graph.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# negative: the first-order gradients come from torch.autograd.grad(loss, params, create_graph=True) (PyHessian's later fix), not from .grad
# mimics: positive/1066_v1_hvp_helper_list_params.py
# expect: no finding
# checked: ran, no reference-cycle warning; same eigenvalue estimate

import torch
import torch.nn as nn


def top_eigenvalue(model, criterion, inputs, targets, iters=5):
    params = [p for p in model.parameters() if p.requires_grad]
    loss = criterion(model(inputs), targets)
    grads = torch.autograd.grad(loss, params, create_graph=True)
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
print(model[0].weight.grad)
