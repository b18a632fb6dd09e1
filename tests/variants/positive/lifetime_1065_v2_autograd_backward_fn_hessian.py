# source: variant of 1065_backward_create_graph_tanh_leak.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: a Hessian-trace estimator uses torch.autograd.backward(loss, create_graph=True) (the function form) and then differentiates the stored .grad; the gradients in .grad keep a graph that references the parameters (a cycle), leaking each step's graph
# expect: line 15 — torch.autograd.backward(..., create_graph=True) stores graph-carrying gradients in .grad; use torch.autograd.grad(..., create_graph=True)
# checked: ran, reproduces (after the step p.grad carries a grad_fn: the parameter/gradient reference cycle PyTorch warns about)

import torch
import torch.nn as nn


def hutchinson_trace(model, loss):
    params = [p for p in model.parameters() if p.requires_grad]
    torch.autograd.backward(loss, create_graph=True)
    grads = [p.grad for p in params]
    vs = [torch.randint_like(p, 2) * 2 - 1 for p in params]
    hvs = torch.autograd.grad(grads, params, grad_outputs=vs)
    return sum((h * v).sum() for h, v in zip(hvs, vs))


model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
for step in range(2):
    model.zero_grad()
    loss = model(torch.randn(16, 4)).pow(2).mean()
    tr = hutchinson_trace(model, loss)
