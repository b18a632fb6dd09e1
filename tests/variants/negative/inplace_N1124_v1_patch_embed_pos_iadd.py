# source: variant of 1124_vit_decoder_token_inplace_pos_embedding.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — ViT patch embedding: x += self.pos_embed on a conv output (flatten/transpose view) — nothing saved it
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, dim=8, n=16):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, 4, stride=4)
        self.pos_embed = nn.Parameter(torch.zeros(1, n, dim))
        self.head = nn.Linear(dim, 2)

    def forward(self, img):
        x = self.proj(img).flatten(2).transpose(1, 2)
        x += self.pos_embed
        return self.head(x.mean(1))


PatchEmbed()(torch.randn(2, 3, 16, 16)).sum().backward()
