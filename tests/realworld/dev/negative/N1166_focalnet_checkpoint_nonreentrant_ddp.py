# source: https://github.com/microsoft/FocalNet/issues/4
# framework: torch
# family: F
# kind: other-ddp-reentrant-checkpoint
# negative: the workaround recommended for this error in related threads (huggingface/accelerate#389, modelscope/ms-swift#3171): the non-reentrant checkpoint (use_reentrant=False), which DDP's unused-parameter detection supports
# mimics: positive/1166_focalnet_checkpoint_ddp_marked_ready_twice.py
# expect: no finding
# checked: ran, no error
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
                x = checkpoint.checkpoint(blk, x, use_reentrant=False)
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
