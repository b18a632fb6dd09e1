# source: variant of 2204_elegy_cosine_similarity_divide_by_norm.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: torch port: manual normalisation e / e.norm(dim=-1, keepdim=True) of token embeddings zeroed at padding positions by a mask; a zero row is 0/0 = NaN in value and gradient
# expect: line 20 — emb / emb.norm(dim=-1, keepdim=True) with all-zero padded rows
# checked: ran (torch 2.13 CPU), reproduces (NaN in model.emb.weight.grad (padded rows are zero))

import torch
from torch import nn


class CosineScorer(nn.Module):
    def __init__(self, vocab=10, dim=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def forward(self, tokens, query):
        e = self.emb(tokens) * (tokens != 0).unsqueeze(-1).float()
        e = e / e.norm(dim=-1, keepdim=True)
        return (e * query).sum(-1)


model = CosineScorer()
tokens = torch.tensor([[3, 5, 0, 0]])
model(tokens, torch.randn(4)).sum().backward()
print(torch.isnan(model.emb.weight.grad).any().item())
