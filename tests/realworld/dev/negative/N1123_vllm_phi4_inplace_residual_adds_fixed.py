# source: https://github.com/vllm-project/vllm/pull/24500
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the reviewer's suggestion (the original code): the residual additions are out of place
# mimics: positive/1123_vllm_phi4_inplace_residual_adds.py
# expect: no finding
# checked: ran, no error

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
        hidden_states = hidden_states + self.conv(hidden_states)
        hidden_states = hidden_states + 0.5 * self.feed_forward_out(
            hidden_states)
        return hidden_states


layer = ConformerEncoderLayer()
out = layer(torch.randn(2, 5, 16))
out.sum().backward()
