# source: variant of 1054_deep_cage_detached_mvc_weights_reg.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: fixed twin: the attention map is returned with its graph, so the entropy regulariser trains it
# expect: no finding
# checked: ran, no error (exit 0)

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)

    def forward(self, x):
        attn = torch.softmax(self.q(x) @ self.k(x).transpose(-2, -1) / 4.0, dim=-1)
        out = attn @ self.v(x)
        return out, attn


def entropy_reg(attn):
    return -(attn * torch.log(attn + 1e-8)).sum(-1).mean()


model = Attention()
optimizer = torch.optim.Adam(model.parameters())
out, attn = model(torch.randn(2, 5, 16))
reg = entropy_reg(attn)
print(reg.requires_grad)
optimizer.zero_grad()
reg.backward()
optimizer.step()
