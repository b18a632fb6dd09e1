# source: variant of 1045_checkpoint_lambda_input_no_grad.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: the model's forward checkpoints every block in a loop (reentrant checkpoint) starting from the raw input, which does not require grad; every block's output then has no graph and the blocks' weights get no gradient
# expect: line 24 — reentrant checkpoint of a block whose input does not require grad: the output has no grad_fn
# checked: ran, reproduces (after backward every block's weight.grad is None; only the head trains)

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
                x = checkpoint(blk, x, use_reentrant=True)
            else:
                x = blk(x)
        return self.head(x)


model = Net()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loss = model(torch.randn(4, 16)).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
