# source: https://github.com/Lyken17/pytorch-memonger/issues/4
# family: F
# pitfall: reentrant activation checkpointing over every transformer block while the (frozen) embedding layer produces inputs that do not require grad
# expect: line 22 — use_reentrant=True with an input that does not require grad: the checkpointed blocks get no gradients ("None of the inputs have requires_grad=True"); use use_reentrant=False

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Encoder(nn.Module):
    def __init__(self, vocab=1000, d=64, n_layers=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.embed.weight.requires_grad_(False)  # frozen pretrained embeddings
        self.blocks = nn.ModuleList([nn.TransformerEncoderLayer(d, 4, 128, batch_first=True) for _ in range(n_layers)])
        self.head = nn.Linear(d, 2)

    def forward(self, tokens):
        h = self.embed(tokens)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=True)
        return self.head(h.mean(dim=1))


enc = Encoder()
loss = nn.functional.cross_entropy(enc(torch.randint(0, 1000, (8, 16))), torch.randint(0, 2, (8,)))
loss.backward()
print([b.linear1.weight.grad for b in enc.blocks])  # all None
