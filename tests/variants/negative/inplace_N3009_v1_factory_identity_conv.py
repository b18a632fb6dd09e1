# source: variant of 3009_conv_weight_index_assign.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — factory writes the kernel under torch.no_grad()
# checked: ran, no error (exit 0)
import torch
import torch.nn as nn


def make_identity_conv(channels):
    conv = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
    with torch.no_grad():
        conv.weight.zero_()
        for c in range(channels):
            conv.weight[c, c, 1, 1] = 1.0
    return conv


conv = make_identity_conv(2)
x = torch.randn(1, 2, 5, 5)
print(torch.allclose(conv(x), x))
