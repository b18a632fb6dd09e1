# source: variant of 3090_bmm_attention_value_index_assign.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: attention inside a Module.forward: torch.matmul saves v, then v[:, :, 0] = 0 writes into it
# expect: line 21 — v[:, :, 0] = 0 after torch.matmul saved v
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2, 8, 5]], which is output 0 of AsStrided, is at version 1; expected v)
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.v = nn.Linear(d, d)

    def forward(self, x):
        q, v = self.q(x), self.v(x)
        logits = torch.matmul(q, v.transpose(1, 2))
        v[:, :, 0] = 0
        return torch.matmul(logits.softmax(-1), v)


Attn()(torch.randn(2, 5, 8)).sum().backward()
