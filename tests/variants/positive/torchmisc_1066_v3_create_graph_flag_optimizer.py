# source: variant of 1066_pyhessian_backward_create_graph.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: a training loop for a second-order optimizer (AdaHessian-style) passes create_graph=create_graph to loss.backward() with the flag set from the optimizer's needs; the Hessian-diagonal estimate then reads p.grad, so every step the parameters and their graph-carrying .grad form a reference cycle
# expect: line 27 — backward(create_graph=True) (through the create_graph flag) stores graph-carrying gradients in .grad; use torch.autograd.grad(loss, params, create_graph=True)
# checked: ran, reproduces (the "reference cycle" UserWarning; p.grad carries a grad_fn after backward)

import torch
import torch.nn as nn


def hutchinson_diag(params):
    grads = [p.grad for p in params]
    zs = [torch.randint_like(p, 2) * 2 - 1 for p in params]
    hzs = torch.autograd.grad(grads, params, grad_outputs=zs)
    return [hz * z for hz, z in zip(hzs, zs)]


def train(model, loader, lr=0.05, second_order=True):
    params = list(model.parameters())
    create_graph = second_order
    for x, y in loader:
        for p in params:
            p.grad = None
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward(create_graph=create_graph)
        diag = hutchinson_diag(params) if second_order else [torch.ones_like(p) for p in params]
        with torch.no_grad():
            for p, d in zip(params, diag):
                p -= lr * p.grad / (d.abs() + 1e-4)


model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
train(model, [(torch.randn(16, 4), torch.randn(16, 1)) for _ in range(2)])
print(model[0].weight.grad.grad_fn)
