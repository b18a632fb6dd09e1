# source: https://github.com/microsoft/FocalNet/issues/4
# framework: torch
# family: F
# kind: other-ddp-reentrant-checkpoint
# pitfall: the backbone's use_checkpoint flag wraps every block in (reentrant) torch.utils.checkpoint while the detector is trained with DistributedDataParallel(find_unused_parameters=True); DDP's unused-parameter search cannot see inside the checkpointed blocks, marks their parameters ready at the end of forward, and the recomputation in backward marks them ready a second time
# expect: line 38 — reentrant checkpoint inside a DDP model with find_unused_parameters=True: "Expected to mark a variable ready only once ... has been marked as ready twice" (use use_reentrant=False, static_graph, or drop find_unused_parameters)
# checked: ran, reproduces (gloo, world_size=1, CPU; torch 2.13 still defaults to the reentrant variant when use_reentrant is not passed); reconstructed from the issue (BasicLayer with use_checkpoint, mmdet-style DDP wrapper with find_unused_parameters=True); block internals simplified
import os
import torch
import torch.nn as nn
import torch.distributed as dist
import torch.utils.checkpoint as checkpoint


class FocalNetBlock(nn.Module):
    def __init__(self, dim, mlp_ratio=4.):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.modulation = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(), nn.Linear(int(dim * mlp_ratio), dim))

    def forward(self, x):
        x = x + self.modulation(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return x


class BasicLayer(nn.Module):
    def __init__(self, dim, depth, use_checkpoint=False):
        super().__init__()
        self.use_checkpoint = use_checkpoint
        self.blocks = nn.ModuleList([FocalNetBlock(dim) for _ in range(depth)])

    def forward(self, x):
        for blk in self.blocks:
            if self.use_checkpoint:
                x = checkpoint.checkpoint(blk, x)
            else:
                x = blk(x)
        return x


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.ModuleDict({"layers": nn.ModuleList([BasicLayer(32, 2, use_checkpoint=True)])})
        self.head = nn.Linear(32, 4)

    def forward(self, x):
        for layer in self.backbone["layers"]:
            x = layer(x)
        return self.head(x)


os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29535")
dist.init_process_group("gloo", rank=0, world_size=1)
model = nn.parallel.DistributedDataParallel(Detector(), find_unused_parameters=True)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
for step in range(2):
    x = torch.randn(2, 49, 32, requires_grad=True)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
