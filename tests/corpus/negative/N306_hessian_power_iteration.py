# source: https://github.com/amirgholami/PyHessian
# family: C
# negative: top Hessian eigenvalue by power iteration: gradients are built once with create_graph=True before the loop, and each Hessian-vector product inside the loop uses retain_graph=True
# mimics: retain_graph=True inside a loop
# expect: no finding

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 1))
params = [p for p in model.parameters() if p.requires_grad]
x, y = torch.randn(128, 10), torch.randn(128, 1)

loss = nn.functional.mse_loss(model(x), y)
grads = torch.autograd.grad(loss, params, create_graph=True)

v = [torch.randn_like(p) for p in params]
eigenvalue = None
for it in range(20):
    norm = torch.sqrt(sum((vi ** 2).sum() for vi in v))
    v = [vi / norm for vi in v]
    Hv = torch.autograd.grad(grads, params, grad_outputs=v, retain_graph=True)
    eigenvalue = sum((h * vi).sum() for h, vi in zip(Hv, v)).item()
    v = [h.detach() for h in Hv]
print("top eigenvalue", eigenvalue)
