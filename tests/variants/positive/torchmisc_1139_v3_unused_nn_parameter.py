# source: variant of 1139_ddp_mylayer_unused_linear.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# pitfall: a ViT-style encoder registers a learnable position embedding (an nn.Parameter, not a layer) that forward() never adds; DistributedDataParallel (find_unused_parameters=False) waits for its gradient and the second iteration fails
# expect: line 19 — self.pos_embed is registered but never used in forward()
# checked: ran, reproduces (gloo, world_size=1, CPU: "Expected to have finished reduction in the prior iteration" on the second step)
import os

import torch
import torch.distributed as dist
import torch.nn as nn


class PatchEncoder(nn.Module):
    def __init__(self, n_patches=4, patch_dim=12, dim=16):
        super().__init__()
        self.patch_embed = nn.Linear(patch_dim, dim)
        self.pos_embed = nn.Parameter(torch.zeros(1, n_patches, dim))
        self.block = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, batch_first=True)
        self.head = nn.Linear(dim, 3)

    def forward(self, patches):
        x = self.patch_embed(patches)
        x = self.block(x)
        return self.head(x.mean(dim=1))


os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29563")
dist.init_process_group("gloo", rank=0, world_size=1)
model = nn.parallel.DistributedDataParallel(PatchEncoder())
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(3):
    loss = nn.functional.cross_entropy(model(torch.randn(2, 4, 12)), torch.randint(0, 3, (2,)))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
