# source: https://github.com/pytorch/pytorch/issues/19791
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# pitfall: a layer registered in __init__ is never used in forward; under DistributedDataParallel its parameters never receive a gradient, so the reducer never finishes the bucket and the next iteration fails
# expect: line 18 — self.b is registered but unused in forward(); DDP (find_unused_parameters=False) fails with "Expected to have finished reduction in the prior iteration" (older versions: _queue_reduction TypeError)
# checked: ran, reproduces (gloo, world_size=1, CPU; the thread's snippet lacked super().__init__(), added; the DDP training lines are reconstructed from "if I train this model in distributed training setup")
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
model = nn.parallel.DistributedDataParallel(MyLayer())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(2):
    x = torch.randn(8, 784)
    loss = model(x).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
