# source: synthetic
# family: E
# pitfall: token embeddings are masked (padding positions set to zero) and then L2-normalised with a chained z.pow(2).sum(-1, keepdim=True).sqrt()
# expect: line 15 — sqrt at 0 for the masked padding positions: infinite slope times 0 gives NaN gradients (use F.normalize or add eps)

import torch
import torch.nn as nn

emb = nn.Embedding(500, 32)
proj = nn.Linear(32, 32)


def encode(tokens):
    z = emb(tokens) * (tokens != 0).unsqueeze(-1)
    norm = z.pow(2).sum(-1, keepdim=True).sqrt()
    z = z / norm.clamp(min=1e-6)
    return proj(z).mean(dim=1)


batch = torch.tensor([[5, 17, 42, 0, 0], [8, 9, 0, 0, 0]])
loss = encode(batch).pow(2).sum()
loss.backward()
print(emb.weight.grad.isnan().any())
