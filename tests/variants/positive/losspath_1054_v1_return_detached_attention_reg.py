# source: variant of 1054_deep_cage_detached_mvc_weights_reg.py
# framework: torch
# family: A
# kind: detach-on-loss-path
# pitfall: an attention module returns its attention map as `out, attn.detach()` (for visualisation), and the training loop regularises that returned map with an entropy term; the regulariser has no gradient and the attention is never sharpened
# expect: line 23 — attn.detach() in the return cuts the regularised tensor from the graph; the entropy loss term has no gradient
# checked: ran, reproduces (reg.requires_grad is False; backward of the regulariser alone raises "element 0 of tensors does not require grad")

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
        return out, attn.detach()


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
