# source: variant of 1065_backward_create_graph_tanh_leak.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: a gradient penalty under AMP is written as scaler.scale(loss).backward(create_graph=True) and reads p.grad; the graph-carrying gradients stored in .grad reference the parameters (a cycle), so each step's double-backward graph is kept until the GC finds it
# expect: line 19 — scaler.scale(loss).backward(create_graph=True) stores graph-carrying gradients in .grad; use torch.autograd.grad(scaler.scale(loss), params, create_graph=True)
# checked: ran, reproduces (p.grad carries a grad_fn after the step; PyTorch's "reference cycle" UserWarning)

import torch
import torch.nn as nn
import torch.nn.functional as F


def train_step(model, optimizer, scaler, x, y, penalty=0.01):
    optimizer.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=False):
        out = model(x)
        loss = F.cross_entropy(out, y)
    scaler.scale(loss).backward(create_graph=True)
    inv_scale = 1.0 / scaler.get_scale() if scaler.is_enabled() else 1.0
    grad_norm = torch.stack([(p.grad * inv_scale).pow(2).sum() for p in model.parameters()]).sum().sqrt()
    scaler.scale(penalty * grad_norm).backward()
    scaler.step(optimizer)
    scaler.update()
    return loss.item()


model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", enabled=False)
for _ in range(2):
    train_step(model, optimizer, scaler, torch.randn(5, 6), torch.randint(0, 3, (5,)))
print(next(model.parameters()).grad.grad_fn)
