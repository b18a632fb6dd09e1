# source: https://github.com/graykode/nlp-tutorial/issues/29
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: the multi-head attention creates its output projection (and LayerNorm) with nn.Linear(...)(context) inside forward, so that projection is a new random layer on every call and is never trained
# expect: line 46 — nn.Linear created in forward: not registered, not in the optimizer, re-initialised at every call
# checked: ran, reproduces (the output projection is absent from parameters())

import torch
import torch.nn as nn
import numpy as np

d_model = 16
d_k = d_v = 4
n_heads = 2


class ScaledDotProductAttention(nn.Module):
    def __init__(self):
        super(ScaledDotProductAttention, self).__init__()

    def forward(self, Q, K, V, attn_mask):
        scores = torch.matmul(Q, K.transpose(-1, -2)) / np.sqrt(d_k)
        scores.masked_fill_(attn_mask, -1e9)
        attn = nn.Softmax(dim=-1)(scores)
        context = torch.matmul(attn, V)
        return context, attn


class MultiHeadAttention(nn.Module):
    def __init__(self):
        super(MultiHeadAttention, self).__init__()
        self.W_Q = nn.Linear(d_model, d_k * n_heads)
        self.W_K = nn.Linear(d_model, d_k * n_heads)
        self.W_V = nn.Linear(d_model, d_v * n_heads)

    def forward(self, Q, K, V, attn_mask):
        residual, batch_size = Q, Q.size(0)
        q_s = self.W_Q(Q).view(batch_size, -1, n_heads, d_k).transpose(1, 2)
        k_s = self.W_K(K).view(batch_size, -1, n_heads, d_k).transpose(1, 2)
        v_s = self.W_V(V).view(batch_size, -1, n_heads, d_v).transpose(1, 2)

        attn_mask = attn_mask.unsqueeze(1).repeat(1, n_heads, 1, 1)
        context, attn = ScaledDotProductAttention()(q_s, k_s, v_s, attn_mask)
        context = context.transpose(1, 2).contiguous().view(batch_size, -1, n_heads * d_v)
        output = nn.Linear(n_heads * d_v, d_model)(context)
        return nn.LayerNorm(d_model)(output + residual), attn


mha = MultiHeadAttention()
x = torch.randn(2, 5, d_model)
out, attn = mha(x, x, x, torch.zeros(2, 5, 5, dtype=torch.bool))
print(len(list(mha.parameters())))
