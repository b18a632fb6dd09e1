# source: https://github.com/jlamprou/Infini-Attention/issues/3
# framework: torch
# family: C
# kind: hidden-state-not-detached
# pitfall: the compressive memory M and normaliser z are updated from the keys/values of each segment and kept on the module, so the next segment's backward reaches the previous segment's freed graph (retain_graph=True only trades this for memory growth)
# expect: line 29 — self.M (and self.z) carry the previous segment's graph into the next one; they must be detached when they are stored
# checked: ran, reproduces (second segment's backward: "Trying to backward through the graph a second time")

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
        self.M = self.M + sigma_k.transpose(-2, -1) @ v
        self.z = self.z + sigma_k.sum(dim=-2)

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
