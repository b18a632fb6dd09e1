# source: negative twin of a variant of 1139_ddp_mylayer_unused_linear.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# negative: the submodules that forward() never calls (a Dropout and an activation kept for a config switch) have no parameters, so DDP has nothing to wait for
# mimics: positive/1139_v3_unused_nn_parameter.py
# expect: no finding
# checked: ran, 3 steps complete (gloo, world_size=1, CPU)
import os

import torch
import torch.distributed as dist
import torch.nn as nn


class PatchEncoder(nn.Module):
    def __init__(self, n_patches=4, patch_dim=12, dim=16, p_drop=0.1):
        super().__init__()
        self.patch_embed = nn.Linear(patch_dim, dim)
        self.pos_embed = nn.Parameter(torch.zeros(1, n_patches, dim))
        self.pos_drop = nn.Dropout(p_drop)
        self.act = nn.GELU()
        self.block = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, batch_first=True)
        self.head = nn.Linear(dim, 3)

    def forward(self, patches):
        x = self.patch_embed(patches) + self.pos_embed
        x = self.block(x)
        return self.head(x.mean(dim=1))


os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29565")
dist.init_process_group("gloo", rank=0, world_size=1)
model = nn.parallel.DistributedDataParallel(PatchEncoder())
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(3):
    loss = nn.functional.cross_entropy(model(torch.randn(2, 4, 12)), torch.randint(0, 3, (2,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
