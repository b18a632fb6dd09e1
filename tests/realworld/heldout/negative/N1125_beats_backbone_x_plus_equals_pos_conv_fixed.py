# source: https://github.com/microsoft/unilm/pull/999
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the proposed fix: x = x.clone() + x_conv, an out-of-place addition
# mimics: positive/1125_beats_backbone_x_plus_equals_pos_conv.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class TransformerEncoder(nn.Module):
    def __init__(self, embedding_dim=16):
        super().__init__()
        self.pos_conv = nn.Sequential(nn.Conv1d(embedding_dim, embedding_dim, kernel_size=3, padding=1), nn.GELU())
        self.layer_norm = nn.LayerNorm(embedding_dim)
        self.layers = nn.ModuleList([nn.Linear(embedding_dim, embedding_dim) for _ in range(2)])

    def extract_features(self, x, padding_mask=None):
        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        x = x.clone() + x_conv
        x = self.layer_norm(x)
        for layer in self.layers:
            x = layer(x)
        return x


features = nn.Linear(4, 16)(torch.randn(2, 10, 4))
enc = TransformerEncoder()
enc.extract_features(features).sum().backward()
