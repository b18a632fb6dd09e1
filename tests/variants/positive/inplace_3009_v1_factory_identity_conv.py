# source: variant of 3009_conv_weight_index_assign.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: kernel values are written by index assignment into a conv built by a factory function
# expect: line 16 — conv.weight[0, 0, 1, 1] = 1.0 index store into a parameter
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn


def make_identity_conv(channels):
    conv = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
    nn.init.zeros_(conv.weight)
    for c in range(channels):
        conv.weight[c, c, 1, 1] = 1.0
    return conv


conv = make_identity_conv(2)
x = torch.randn(1, 2, 5, 5)
print(torch.allclose(conv(x), x))
