# source: synthetic
# family: C
# pitfall: Hessian-vector product for influence functions obtained by loss.backward(create_graph=True) and then autograd.grad over the .grad fields
# expect: line 15 — backward(create_graph=True) writes differentiable grads into p.grad (reference cycle / leak, and they keep accumulating across calls); use torch.autograd.grad(loss, params, create_graph=True)

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 20), nn.Tanh(), nn.Linear(20, 1))
params = [p for p in model.parameters() if p.requires_grad]


def hvp(x, y, vec):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward(create_graph=True)
    grads = [p.grad for p in params]
    return torch.autograd.grad(grads, params, grad_outputs=vec)


v = [torch.randn_like(p) for p in params]
for _ in range(10):
    Hv = hvp(torch.randn(64, 10), torch.randn(64, 1), v)
    v = [h / h.norm() for h in Hv]
