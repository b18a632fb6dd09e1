# source: https://github.com/ultralytics/ultralytics/issues/5821
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# negative: the fix reported in the thread: delete the declarations of the layers that forward() no longer uses
# mimics: positive/1142_custom_block_commented_out_norm_ddp.py
# expect: no finding
# checked: ran, no error
import os
import torch
import torch.nn as nn
import torch.distributed as dist


class CustomBlock(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, 3, 1, 1)

    def forward(self, x):
        x = self.conv(x)
        #x = self.norm(x)
        #x = self.relu(x)
        return x


os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29534")
dist.init_process_group("gloo", rank=0, world_size=1)
model = nn.parallel.DistributedDataParallel(nn.Sequential(CustomBlock(3, 16), nn.Conv2d(16, 4, 1)))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(2):
    loss = model(torch.randn(2, 3, 32, 32)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
