# source: negative twin of a variant of 1139_ddp_mylayer_unused_linear.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# negative: DDP(model, find_unused_parameters=True)
# mimics: positive/1139_v1_ddp_alias_trainer.py
# expect: no finding
# checked: ran, 3 steps complete
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


class Classifier(nn.Module):
    def __init__(self, in_dim=32, n_classes=5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU())
        self.head = nn.Linear(64, n_classes)
        self.aux_head = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


class Trainer:
    def __init__(self, model, rank):
        self.model = DDP(model, find_unused_parameters=True)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def step(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29541")
    dist.init_process_group("gloo", rank=0, world_size=1)
    trainer = Trainer(Classifier(), rank=0)
    for _ in range(3):
        print(trainer.step(torch.randn(8, 32), torch.randint(0, 5, (8,))))
