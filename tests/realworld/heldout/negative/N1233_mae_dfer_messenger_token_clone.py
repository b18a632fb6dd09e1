# source: https://github.com/sunlicai/MAE-DFER/issues/15
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the reporter's change (the maintainer attributes the error to newer PyTorch defaults): the messenger tokens are read from x[:,0].clone(), so the normalised slice saved for backward is a copy that the store into x[:,0] does not touch
# mimics: positive/1233_mae_dfer_messenger_token_slice_store.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


def rearrange(t, pattern, b=None):
    if pattern == '(b n) c -> b n c':
        return t.reshape(b, -1, t.shape[-1])
    if pattern == 'b n c -> (b n) c':
        return t.reshape(-1, t.shape[-1])
    raise ValueError(pattern)


class Attention(nn.Module):
    def __init__(self, dim, num_heads=2):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, num_heads, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


class LGBlock(nn.Module):
    def __init__(self, dim, first_attn_type='self', no_second=False):
        super().__init__()
        self.first_attn_type = first_attn_type
        self.no_second = no_second
        self.first_attn_norm0 = nn.LayerNorm(dim)
        self.first_attn = Attention(dim)
        self.second_attn_norm0 = nn.LayerNorm(dim)
        self.second_attn = Attention(dim)
        self.drop_path = nn.Identity()
        self.gamma_1 = None

    def forward(self, x, b):
        bn = x.shape[0]
        n = bn // b # number of local regions
        if self.gamma_1 is None:
            # Attention layer
            ## perform local (intra-region) self-attention
            if self.first_attn_type == 'self':
                x = x + self.drop_path(self.first_attn(self.first_attn_norm0(x)))

            ## perform global (inter-region) self-attention
            if not self.no_second:
                # messenger_tokens: representative tokens
                messenger_tokens = rearrange(x[:,0].clone(), '(b n) c -> b n c', b=b) # attn on 'n' dim
                messenger_tokens = messenger_tokens + self.drop_path(
                    self.second_attn(self.second_attn_norm0(messenger_tokens))
                )
                x[:,0] = rearrange(messenger_tokens, 'b n c -> (b n) c')
        return x


block = LGBlock(dim=8)
b, n, s = 2, 4, 5
x = torch.randn(b * n, s, 8, requires_grad=True)
block(x, b).sum().backward()
