# source: variant of 1141_pwcnet_unused_deconv2_ddp.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# pitfall: a U-Net-like flow estimator builds its layers with helper functions; the finest level's upsampling block (self.up1) is created in __init__ but forward() stops at the prediction; with SyncBatchNorm conversion and DistributedDataParallel(device_ids=...) the unused block's gradients never arrive and the next iteration fails
# expect: line 33 — self.up1 is built in __init__ but never used in forward()
# checked: ran, reproduces (gloo, world_size=1, CPU without device_ids: "Expected to have finished reduction in the prior iteration"); the CUDA SyncBatchNorm/device_ids branch is not exercised
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.LeakyReLU(0.1))


def up_block(cin, cout):
    return nn.Sequential(nn.ConvTranspose2d(cin, cout, 4, 2, 1), nn.LeakyReLU(0.1))


class FlowNetLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = conv_block(6, 8)
        self.enc2 = conv_block(8, 16)
        self.pool = nn.MaxPool2d(2)
        self.up2 = up_block(16, 8)
        self.dec1 = conv_block(16, 8)
        self.predict = nn.Conv2d(8, 2, 3, padding=1)
        self.up1 = up_block(2, 2)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        d1 = self.dec1(torch.cat([self.up2(e2), e1], dim=1))
        return self.predict(d1)


def setup_model(local_rank):
    model = FlowNetLite()
    if torch.cuda.is_available():
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model).cuda(local_rank)
        return DistributedDataParallel(model, device_ids=[local_rank], output_device=local_rank)
    return DistributedDataParallel(model)


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29564")
    dist.init_process_group("gloo", rank=0, world_size=1)
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    model = setup_model(local_rank)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for step in range(3):
        flow = model(torch.randn(2, 6, 8, 8))
        loss = (flow - torch.zeros_like(flow)).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
