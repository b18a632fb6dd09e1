# source: https://github.com/vllm-project/vllm/pull/24500
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: a refactor turns hidden_states = hidden_states + self.conv(hidden_states) into hidden_states += self.conv(hidden_states); the in-place add overwrites the input that the convolution (and then the feed-forward) saved for backward, which breaks training
# expect: line 24 — hidden_states += f(hidden_states) modifies the tensor f saved for its backward
# checked: ran, reproduces ("modified by an inplace operation")

import torch
import torch.nn as nn


class ConformerEncoderLayer(nn.Module):
    def __init__(self, d_model=16):
        super().__init__()
        self.self_attn = nn.Linear(d_model, d_model)
        self.conv = nn.Linear(d_model, d_model)
        self.feed_forward_out = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask=None):
        residual = x
        hidden_states = x
        hidden_states = residual + self.self_attn(hidden_states)
        hidden_states += self.conv(hidden_states)
        hidden_states += 0.5 * self.feed_forward_out(hidden_states)
        return hidden_states


layer = ConformerEncoderLayer()
out = layer(torch.randn(2, 5, 16))
out.sum().backward()
