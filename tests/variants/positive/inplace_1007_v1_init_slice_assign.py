# source: variant of 1007_nyu_sinusoidal_embedding_into_weight.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: sinusoidal table written into nn.Embedding.weight by slice assignment directly inside __init__ (no helper), grad mode on
# expect: line 19 — self.pos_emb.weight[:, 0::2] = torch.sin(...) into a view of a parameter
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import math
import torch
import torch.nn as nn


class PositionalEmbedding(nn.Module):
    def __init__(self, max_len, d_model):
        super().__init__()
        self.pos_emb = nn.Embedding(max_len, d_model)
        position = torch.arange(max_len).unsqueeze(1).float()
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        self.pos_emb.weight[:, 0::2] = torch.sin(position * div_term)
        self.pos_emb.weight[:, 1::2] = torch.cos(position * div_term)
        self.pos_emb.weight.requires_grad = False

    def forward(self, x):
        pos = torch.arange(x.size(1), device=x.device)
        return x + self.pos_emb(pos)


pe = PositionalEmbedding(50, 16)
print(pe(torch.randn(2, 10, 16)).shape)
