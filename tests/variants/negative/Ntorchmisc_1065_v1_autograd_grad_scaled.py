# source: negative twin of a variant of 1065_backward_create_graph_tanh_leak.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# negative: the gradient penalty takes the gradients with torch.autograd.grad(scaler.scale(loss), params, create_graph=True) (the AMP docs' recipe), so nothing with a graph is stored in .grad
# mimics: positive/1065_v1_amp_scaler_grad_penalty.py
# expect: no finding
# checked: ran, no reference-cycle warning; p.grad has no grad_fn after the step

import torch
import torch.nn as nn
import torch.nn.functional as F


def train_step(model, optimizer, scaler, x, y, penalty=0.01):
    optimizer.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=False):
        out = model(x)
        loss = F.cross_entropy(out, y)
    params = list(model.parameters())
    scaled_grads = torch.autograd.grad(scaler.scale(loss), params, create_graph=True)
    inv_scale = 1.0 / scaler.get_scale() if scaler.is_enabled() else 1.0
    grad_norm = torch.stack([(g * inv_scale).pow(2).sum() for g in scaled_grads]).sum().sqrt()
    scaler.scale(loss + penalty * grad_norm).backward()
    scaler.step(optimizer)
    scaler.update()
    return loss.item()


model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", enabled=False)
for _ in range(2):
    train_step(model, optimizer, scaler, torch.randn(5, 6), torch.randint(0, 3, (5,)))
print(next(model.parameters()).grad.grad_fn)
