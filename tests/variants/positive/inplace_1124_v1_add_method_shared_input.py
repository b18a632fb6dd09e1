# source: variant of 1124_vit_decoder_token_inplace_pos_embedding.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: decoder adds its position embedding in place with token.add_(self.pos) on its input; the same latent feeds two decoders, so the second modifies what the first saved
# expect: line 19 — token.add_(self.pos_embedding) on the shared input
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [8, 8]], which is output 0 of AsStrided, is at version 2; expected vers)
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, n=4, d=8):
        super().__init__()
        self.pos_embedding = nn.Parameter(torch.randn(1, n, d))
        self.net = nn.Linear(d, d)

    def forward(self, token):
        token.add_(self.pos_embedding)
        return self.net(token)


enc = nn.Linear(3, 8)
dec1, dec2 = Decoder(), Decoder()
z = torch.tanh(enc(torch.randn(2, 4, 3)))
(dec1(z).sum() + dec2(z).sum()).backward()
