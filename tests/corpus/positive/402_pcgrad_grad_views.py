# source: https://github.com/WeiChengTseng/Pytorch-PCGrad
# family: D
# pitfall: PCGrad-style projection collects each task's gradient as p.grad.view(-1) views and zeroes the grads in place between tasks
# expect: line 20 — .view(-1) shares storage with p.grad; zero_grad(set_to_none=False) and the next backward overwrite it, so every stored "task gradient" is the last task's

import torch
import torch.nn as nn

shared = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32))
heads = nn.ModuleList([nn.Linear(32, 1) for _ in range(3)])
opt = torch.optim.SGD([*shared.parameters(), *heads.parameters()], lr=0.01)


def task_gradients(x, ys):
    feat = shared(x)
    grads = []
    for head, y in zip(heads, ys):
        opt.zero_grad(set_to_none=False)
        nn.functional.mse_loss(head(feat), y).backward(retain_graph=True)
        grads.append([p.grad.view(-1) for p in shared.parameters()])
    return grads


g = task_gradients(torch.randn(16, 20), [torch.randn(16, 1) for _ in range(3)])
dots = [sum((a * b).sum() for a, b in zip(g[0], g[k])) for k in (1, 2)]
print(dots)
