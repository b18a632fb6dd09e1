# source: https://github.com/thuanz123/enhancing-transformers/issues/11
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the fix suggested and applied: the positional embedding is added out of place
# mimics: positive/1124_vit_decoder_token_inplace_pos_embedding.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class ViTDecoder(nn.Module):
    def __init__(self, num_tokens=16, dim=8):
        super().__init__()
        self.de_pos_embedding = nn.Parameter(torch.randn(1, num_tokens, dim))
        self.transformer = nn.Linear(dim, dim)
        self.to_pixel = nn.Linear(dim, 4)

    def forward(self, token):
        x = token
        x = x + self.de_pos_embedding
        x = self.transformer(x)
        return self.to_pixel(x)


encoder = nn.Linear(4, 8)
decoder_a = ViTDecoder()
decoder_b = ViTDecoder()
quant = encoder(torch.randn(2, 16, 4)) * 2
rec_a = decoder_a(quant)
rec_b = decoder_b(quant)
(rec_a.sum() + rec_b.sum()).backward()
