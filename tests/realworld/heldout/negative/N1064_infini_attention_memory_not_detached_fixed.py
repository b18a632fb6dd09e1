# source: https://github.com/jlamprou/Infini-Attention/issues/3
# framework: torch
# family: C
# kind: hidden-state-not-detached
# negative: the author's fix: M and z are detached in _update_memory, so no graph crosses segments
# mimics: positive/1064_infini_attention_memory_not_detached.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
import torch.nn.functional as F


class InfiniAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.M = torch.zeros(dim, dim)
        self.z = torch.zeros(dim)

    def _retrieve_from_memory(self, q):
        sigma_q = F.elu(q) + 1
        return (sigma_q @ self.M) / ((sigma_q @ self.z)[..., None] + 1e-6)

    def _update_memory(self, k, v):
        sigma_k = F.elu(k) + 1
        self.M = (self.M + sigma_k.transpose(-2, -1) @ v).detach()
        self.z = (self.z + sigma_k.sum(dim=-2)).detach()

    def forward(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        a_mem = self._retrieve_from_memory(q)
        a_dot = torch.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, dim=-1) @ v
        self._update_memory(k, v)
        return a_mem + a_dot


model = InfiniAttention(8)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
sequence = torch.randn(4 * 6, 8)
for segment in sequence.split(6):
    out = model(segment)
    loss = out.pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
