# source: synthetic
# family: C
# pitfall: a dict of running loss components is accumulated with the loss tensors themselves (running[k] += v) for periodic logging
# expect: line 27 — running[k] += v with graph tensors keeps all iterations' graphs alive until the next reset (memory grows with the log interval)

import torch
import torch.nn as nn
import torch.nn.functional as F
from collections import defaultdict

backbone = nn.Sequential(nn.Linear(64, 128), nn.ReLU())
heads = nn.ModuleDict({"age": nn.Linear(128, 1), "gender": nn.Linear(128, 2)})
opt = torch.optim.Adam([*backbone.parameters(), *heads.parameters()], lr=1e-3)
running = defaultdict(float)

for step in range(1, 2001):
    x = torch.randn(32, 64)
    h = backbone(x)
    losses = {
        "age": F.l1_loss(heads["age"](h).squeeze(-1), torch.rand(32) * 80),
        "gender": F.cross_entropy(heads["gender"](h), torch.randint(0, 2, (32,))),
    }
    opt.zero_grad()
    sum(losses.values()).backward()
    opt.step()
    for k, v in losses.items():
        running[k] += v
    if step % 500 == 0:
        print({k: round(float(v) / 500, 4) for k, v in running.items()})
        running.clear()
