# source: https://github.com/official-stockfish/nnue-pytorch/pull/75
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: the virtual (factorised) input features' weights are zeroed by slice assignment into the input layer's weight, a parameter, with grad mode on, which recent PyTorch versions reject
# expect: line 31 — slice assignment into a view of a parameter outside torch.no_grad() raises "a view of a leaf Variable ... in-place operation"
# checked: ran, reproduces

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
        weights = self.input.weight
        for a, b in self.feature_set.get_virtual_feature_ranges():
            weights[:, a:b] = 0.0
        self.input.weight = nn.Parameter(weights)


model = NNUE(FeatureSet())
