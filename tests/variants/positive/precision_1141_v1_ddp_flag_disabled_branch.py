# source: variant of 1141_pwcnet_unused_deconv2_ddp.py
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# pitfall: the flow decoder registers an upsampling deconv that forward() only calls when self.upsample_last is set, and the config leaves it False; under DistributedDataParallel without find_unused_parameters the deconv never gets a gradient and the next iteration fails
# expect: line 19 — self.deconv2 is registered but (with upsample_last=False) never used in forward()
# checked: ran, reproduces (gloo, world_size=1, CPU: "Expected to have finished reduction in the prior iteration")
import os

import torch
import torch.distributed as dist
import torch.nn as nn


class FlowDecoder(nn.Module):
    def __init__(self, upsample_last=False):
        super().__init__()
        self.predict_flow2 = nn.Conv2d(8, 2, 3, padding=1)
        self.deconv2 = nn.ConvTranspose2d(2, 2, 4, 2, 1)
        self.upsample_last = upsample_last

    def forward(self, x):
        flow2 = self.predict_flow2(x)
        if self.upsample_last:
            flow2 = self.deconv2(flow2)
        return flow2


os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29543")
dist.init_process_group("gloo", rank=0, world_size=1)
model = nn.parallel.DistributedDataParallel(FlowDecoder())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
for _ in range(3):
    loss = model(torch.randn(2, 8, 8, 8)).abs().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
