# source: variant of 1139_ddp_mylayer_unused_linear.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# pitfall: a multi-task model keeps its task heads in an nn.ModuleDict, but forward() only runs the "cls" head; the "reg" head's parameters never get a gradient, so DistributedDataParallel (find_unused_parameters=False) fails on the second iteration
# expect: line 22 — the "reg" head registered in the ModuleDict is never used in forward()
# checked: ran, reproduces (gloo, world_size=1, CPU: "Expected to have finished reduction in the prior iteration" on the second step)
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskNet(nn.Module):
    def __init__(self, d_in=20, d_hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU())
        self.heads = nn.ModuleDict({
            "cls": nn.Linear(d_hidden, 5),
            "reg": nn.Linear(d_hidden, 1),
        })

    def forward(self, x):
        return self.heads["cls"](self.trunk(x))


os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29562")
dist.init_process_group("gloo", rank=0, world_size=1)
model = nn.parallel.DistributedDataParallel(MultiTaskNet())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = F.cross_entropy(model(torch.randn(8, 20)), torch.randint(0, 5, (8,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
