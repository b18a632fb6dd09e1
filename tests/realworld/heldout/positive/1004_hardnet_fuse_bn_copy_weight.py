# source: https://github.com/PingoLH/FCHarDNet/issues/61
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: fusing BatchNorm into a convolution writes the fused kernel with slice assignment into conv.weight, a leaf parameter, with grad mode on
# expect: line 21 — slice assignment into a parameter (a view of a leaf that requires grad) raises RuntimeError
# checked: ran, reproduces

import torch
import torch.nn as nn

conv = nn.Conv2d(3, 8, 3, bias=False)
bn = nn.BatchNorm2d(8)
bn.eval()

std = (bn.running_var + bn.eps).sqrt()
W = conv.weight * (bn.weight / std).reshape(-1, 1, 1, 1)
b = bn.bias - bn.running_mean * bn.weight / std

cconv = nn.Conv2d(3, 8, 3, bias=True)
cconv.weight[:,:,:,:] = W[:,:,:,:]
cconv.bias[:] = b[:]
