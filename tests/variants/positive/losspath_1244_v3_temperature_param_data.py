# source: variant of 1244_d2l_custom_linear_uses_weight_data.py
# framework: torch
# family: A
# kind: data-on-loss-path
# pitfall: a contrastive head learns a temperature nn.Parameter but scales the logits with self.logit_scale.data.exp(); .data has no history, so the temperature never moves
# expect: line 26 — self.logit_scale.data bypasses autograd; the learnable temperature gets no gradient
# checked: ran, reproduces (logit_scale.grad is None after backward)

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ContrastiveHead(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.img_proj = nn.Linear(dim, dim)
        self.txt_proj = nn.Linear(dim, dim)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, img, txt):
        i = F.normalize(self.img_proj(img), dim=-1)
        t = F.normalize(self.txt_proj(txt), dim=-1)
        return self.logit_scale.data.exp() * i @ t.t()


model = ContrastiveHead()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
logits = model(torch.randn(8, 16), torch.randn(8, 16))
labels = torch.arange(8)
loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(model.logit_scale.grad)
