# source: negative twin of a variant of 1128_open_clip_resblock_checkpoint_reentrant.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# negative: checkpoint(blk, x, use_reentrant=False): the non-reentrant checkpoint gives the blocks gradients even though the input does not require grad
# mimics: positive/1128_v1_blocks_loop_raw_input.py
# expect: no finding
# checked: ran, blocks get gradients
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
            x = torch.utils.checkpoint.checkpoint(blk, x, use_reentrant=False) if self.use_checkpoint else blk(x)
        return self.head(x)


enc = Encoder()
enc(torch.randn(2, 5, 12)).pow(2).mean().backward()
print(enc.blocks[0].fc.weight.grad)
