# source: variant of 1094_forum_one_sided_fd_float32.py
# framework: torch
# family: E
# kind: fd-float32
# pitfall: a gradient sanity check perturbs one weight of a float32 model in place (p.data[idx] += eps) and takes a one-sided difference of the float32 batch loss; the estimate is dominated by rounding
# expect: line 26 — one-sided finite difference of float32 losses
# checked: ran, reproduces (float32 ratios 0.88-1.04 with nn.Linear(256, 2048); float64 gives 0.9996)
import torch
import torch.nn as nn
import torch.nn.functional as F


def numeric_vs_autograd(model, x, y, eps=1e-3):
    model.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    p = next(model.parameters())
    auto = p.grad.view(-1)[:4].clone()
    base = loss.detach()
    nums = []
    for k in range(4):
        with torch.no_grad():
            p.view(-1)[k] += eps
            bumped = F.mse_loss(model(x), y)
            p.view(-1)[k] -= eps
        nums.append(((bumped - base) / eps).item())
    return torch.tensor(nums) / auto


model = nn.Linear(256, 2048)
print(numeric_vs_autograd(model, torch.rand(32, 256), torch.rand(32, 2048)))
