# source: https://pytorch.org/docs/stable/checkpoint.html
# family: F
# negative: activation checkpointing over transformer blocks fed by frozen embeddings uses use_reentrant=False, which handles inputs that do not require grad
# mimics: torch.utils.checkpoint.checkpoint on a block whose input has requires_grad=False
# expect: no finding

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Encoder(nn.Module):
    def __init__(self, vocab=1000, d=64, n_layers=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.embed.weight.requires_grad_(False)
        self.blocks = nn.ModuleList([nn.TransformerEncoderLayer(d, 4, 128, batch_first=True) for _ in range(n_layers)])
        self.head = nn.Linear(d, 2)

    def forward(self, tokens):
        h = self.embed(tokens)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=False)
        return self.head(h.mean(dim=1))


enc = Encoder()
nn.functional.cross_entropy(enc(torch.randint(0, 1000, (8, 16))), torch.randint(0, 2, (8,))).backward()
assert all(b.linear1.weight.grad is not None for b in enc.blocks)
