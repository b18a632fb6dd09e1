# source: https://pytorch.org/docs/stable/notes/faq.html
# family: C
# negative: epoch statistics are accumulated with loss.item() and a dict of detached loss components; no graph is kept alive
# mimics: total_loss += loss / running[k] += v accumulation
# expect: no finding

import torch
import torch.nn as nn
import torch.nn.functional as F
from collections import defaultdict

backbone = nn.Sequential(nn.Linear(64, 128), nn.ReLU())
heads = nn.ModuleDict({"age": nn.Linear(128, 1), "gender": nn.Linear(128, 2)})
opt = torch.optim.Adam([*backbone.parameters(), *heads.parameters()], lr=1e-3)
running, epoch_loss = defaultdict(float), 0.0

for step in range(1, 501):
    h = backbone(torch.randn(32, 64))
    losses = {
        "age": F.l1_loss(heads["age"](h).squeeze(-1), torch.rand(32) * 80),
        "gender": F.cross_entropy(heads["gender"](h), torch.randint(0, 2, (32,))),
    }
    total = sum(losses.values())
    opt.zero_grad()
    total.backward()
    opt.step()
    epoch_loss += total.item()
    for k, v in losses.items():
        running[k] += v.detach()
print(epoch_loss / 500, {k: float(v) / 500 for k, v in running.items()})
