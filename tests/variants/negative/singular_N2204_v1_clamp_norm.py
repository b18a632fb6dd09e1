# source: variant of 2204_elegy_cosine_similarity_divide_by_norm.py
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: norm floored before dividing: e / e.norm(...).clamp_min(1e-12) (what F.normalize does; torch's norm has a 0 gradient at 0)
# mimics: 2204_v1_torch_div_by_norm_padding.py
# expect: no finding
# checked: ran (torch 2.13 CPU), no NaN/inf in the gradient

import torch
from torch import nn


class CosineScorer(nn.Module):
    def __init__(self, vocab=10, dim=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def forward(self, tokens, query):
        e = self.emb(tokens) * (tokens != 0).unsqueeze(-1).float()
        e = e / e.norm(dim=-1, keepdim=True).clamp_min(1e-12)
        return (e * query).sum(-1)


model = CosineScorer()
tokens = torch.tensor([[3, 5, 0, 0]])
model(tokens, torch.randn(4)).sum().backward()
print(torch.isnan(model.emb.weight.grad).any().item())
