# source: negative twin of 1045_v1_forward_loop_checkpoint_blocks.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: none: non-reentrant checkpoint keeps the graph to the blocks' weights
# checked: ran (no error; gradients reach the model)

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Net(nn.Module):
    def __init__(self, dim=16, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Sequential(nn.Linear(dim, dim), nn.GELU()) for _ in range(depth)])
        self.head = nn.Linear(dim, 1)
        self.use_checkpoint = True

    def forward(self, x):
        for blk in self.blocks:
            if self.use_checkpoint and self.training:
                x = checkpoint(blk, x, use_reentrant=False)
            else:
                x = blk(x)
        return self.head(x)


model = Net()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loss = model(torch.randn(4, 16)).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
