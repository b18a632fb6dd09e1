# source: variant of 1007_nyu_sinusoidal_embedding_into_weight.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: a learnable nn.Parameter position table is initialised with sinusoids by slice assignment in __init__ outside no_grad
# expect: line 19 — self.pos_embed[0, :, 0::2] = ... into a view of an nn.Parameter
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import math
import torch
import torch.nn as nn


class ViTEmbed(nn.Module):
    def __init__(self, num_patches=16, dim=8):
        super().__init__()
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches, dim))
        pos = torch.arange(num_patches).float()[:, None]
        freq = torch.exp(torch.arange(0, dim, 2).float() * (-math.log(10000.0) / dim))
        self.pos_embed[0, :, 0::2] = torch.sin(pos * freq)
        self.pos_embed[0, :, 1::2] = torch.cos(pos * freq)

    def forward(self, x):
        return x + self.pos_embed


m = ViTEmbed()
m(torch.randn(2, 16, 8)).sum().backward()
