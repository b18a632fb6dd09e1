# source: https://github.com/sunlicai/MAE-DFER/issues/15
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the local-global attention block reads the messenger tokens from x[:,0], runs the global attention on them (its LayerNorm saves that slice), and writes the result back with x[:,0] = ...; the slice store modifies the view the LayerNorm saved, so fine-tuning fails with "modified by an inplace operation ... AsStridedBackward0"
# expect: line 58 — x[:,0] = rearrange(messenger_tokens, ...) overwrites the saved x[:,0]; the reporter's working change is to read the tokens from x[:,0].clone()
# checked: ran, reproduces (RuntimeError: ... modified by an inplace operation); modeling_finetune.py at 8cd44d5 reduced to the gamma-less branch of the block's forward with 'self' first attention and no third attention; einops.rearrange replaced by a local helper for the two patterns used

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
                messenger_tokens = rearrange(x[:,0], '(b n) c -> b n c', b=b) # attn on 'n' dim
                messenger_tokens = messenger_tokens + self.drop_path(
                    self.second_attn(self.second_attn_norm0(messenger_tokens))
                )
                x[:,0] = rearrange(messenger_tokens, 'b n c -> (b n) c')
        return x


block = LGBlock(dim=8)
b, n, s = 2, 4, 5
x = torch.randn(b * n, s, 8, requires_grad=True)
block(x, b).sum().backward()
