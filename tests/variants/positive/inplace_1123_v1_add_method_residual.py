# source: variant of 1123_vllm_phi4_inplace_residual_adds.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: residual written with the method spelling h.add_(self.mlp(h)): the MLP's first Linear saved h
# expect: line 20 — h.add_(self.mlp(h)) modifies the tensor the MLP saved
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [10, 16]], which is output 0 of AsStrided, is at version 1; expected ve)
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.attn = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        h = x + self.attn(x)
        h.add_(self.mlp(h))
        return h


blk = Block()
blk(torch.randn(2, 5, 16)).sum().backward()
