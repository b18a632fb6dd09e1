# source: variant of 1128_open_clip_resblock_checkpoint_reentrant.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: forward loops over self.blocks and checkpoints every block with the default (reentrant) checkpoint; the first block receives the frozen patch embedding's output, which does not require grad, so that block's parameters get no gradient
# expect: line 35 — reentrant checkpoint of a block whose input does not require grad
# checked: ran, reproduces (warning "None of the inputs have requires_grad=True"; every block's fc.weight.grad is None after backward, only the head trains)
import torch
import torch.nn as nn
import torch.utils.checkpoint


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.fc(self.norm(x))


class Encoder(nn.Module):
    def __init__(self, dim=16, depth=3, use_checkpoint=True):
        super().__init__()
        self.patch_embed = nn.Linear(12, dim)
        self.patch_embed.requires_grad_(False)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.use_checkpoint = use_checkpoint
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        x = self.patch_embed(x)
        for blk in self.blocks:
            x = torch.utils.checkpoint.checkpoint(blk, x) if self.use_checkpoint else blk(x)
        return self.head(x)


enc = Encoder()
enc(torch.randn(2, 5, 12)).pow(2).mean().backward()
print(enc.blocks[0].fc.weight.grad)
