# source: variant of 1007_nyu_sinusoidal_embedding_into_weight.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — buffer table (plain tensor, not a parameter) filled by slice assignment then registered
# checked: ran, no error (exit 0)
import math
import torch
import torch.nn as nn


class PosEnc(nn.Module):
    def __init__(self, num_patches=16, dim=8):
        super().__init__()
        pe = torch.zeros(1, num_patches, dim)
        pos = torch.arange(num_patches).float()[:, None]
        freq = torch.exp(torch.arange(0, dim, 2).float() * (-math.log(10000.0) / dim))
        pe[0, :, 0::2] = torch.sin(pos * freq)
        pe[0, :, 1::2] = torch.cos(pos * freq)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe


m = PosEnc()
x = torch.randn(2, 16, 8, requires_grad=True)
m(x).sum().backward()
