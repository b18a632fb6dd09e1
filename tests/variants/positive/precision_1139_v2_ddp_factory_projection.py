# source: variant of 1139_ddp_mylayer_unused_linear.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# pitfall: a factory builds the model and wraps it in torch.nn.parallel.DistributedDataParallel; the encoder registers a projection layer left over from pre-training that forward() no longer uses, so DDP's reducer waits for its gradient forever
# expect: line 19 — self.proj is registered but never used in forward()
# checked: ran, reproduces (gloo, world_size=1, CPU: "Expected to have finished reduction in the prior iteration" on the second iteration)
import os

import torch
import torch.distributed as dist
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(2)])
        self.proj = nn.Linear(d, 8)

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


def build_ddp_model(rank=0):
    model = Encoder()
    return torch.nn.parallel.DistributedDataParallel(model)


def train(model, steps=3):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(steps):
        out = model(torch.randn(4, 16))
        loss = out.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29542")
dist.init_process_group("gloo", rank=0, world_size=1)
train(build_ddp_model())
