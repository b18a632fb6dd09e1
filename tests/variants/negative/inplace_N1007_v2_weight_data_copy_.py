# source: variant of 1007_nyu_sinusoidal_embedding_into_weight.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — table copied into weight.data
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


def sinusoid_table(n_pos, dim):
    pos = torch.arange(n_pos, dtype=torch.float32)[:, None]
    i = torch.arange(dim, dtype=torch.float32)[None, :]
    angle = pos / torch.pow(10000, 2 * (i // 2) / dim)
    table = torch.zeros(n_pos, dim)
    table[:, 0::2] = torch.sin(angle[:, 0::2])
    table[:, 1::2] = torch.cos(angle[:, 1::2])
    return table


class Encoder(nn.Module):
    def __init__(self, n_pos=64, dim=16):
        super().__init__()
        self.embed = nn.Embedding(n_pos, dim)
        self.embed.weight.data.copy_(sinusoid_table(n_pos, dim))
        self.embed.weight.requires_grad_(False)


enc = Encoder()
