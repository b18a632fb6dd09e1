# source: https://github.com/official-stockfish/nnue-pytorch/pull/75
# framework: torch
# family: D
# kind: inplace-on-leaf
# negative: the merged fix: the zeroing runs under torch.no_grad()
# mimics: positive/1119_nnue_zero_virtual_feature_weights.py
# expect: no finding
# checked: ran, no error

import torch
from torch import nn


class FeatureSet:
    num_features = 64
    num_virtual_features = 16

    def get_virtual_feature_ranges(self):
        return [(48, 64)]


class NNUE(nn.Module):
    def __init__(self, feature_set):
        super(NNUE, self).__init__()
        self.feature_set = feature_set
        self.input = nn.Linear(feature_set.num_features, 32)
        self._zero_virtual_feature_weights()

    def _zero_virtual_feature_weights(self):
        with torch.no_grad():
            weights = self.input.weight
            for a, b in self.feature_set.get_virtual_feature_ranges():
                weights[:, a:b] = 0.0
            self.input.weight = nn.Parameter(weights)


model = NNUE(FeatureSet())
