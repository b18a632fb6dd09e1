# source: https://github.com/pytorch/pytorch/issues/19791
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# negative: the fix named in the DDP error message and in the thread's replies: construct DDP with find_unused_parameters=True so parameters that get no gradient are marked ready
# mimics: positive/1139_ddp_mylayer_unused_linear.py
# expect: no finding
# checked: ran, no error
import os
import torch
import torch.nn as nn
import torch.distributed as dist


class MyLayer(nn.Module):
  def __init__(self):
    super().__init__()
    self.a = nn.Linear(784,200)
    self.b = nn.Linear(784,20)
  def forward(self,x):
    return self.a(x)


os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29531")
dist.init_process_group("gloo", rank=0, world_size=1)
model = nn.parallel.DistributedDataParallel(MyLayer(), find_unused_parameters=True)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x = torch.randn(8, 784)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
