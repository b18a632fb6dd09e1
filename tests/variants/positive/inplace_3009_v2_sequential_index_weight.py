# source: variant of 3009_conv_weight_index_assign.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: a Sobel kernel is stored into the weight of a conv inside an nn.Sequential, reached by model[0].weight, outside no_grad
# expect: line 13 — edge[0].weight[0, 0] = sobel index store into a parameter
# checked: ran, reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn

sobel = torch.tensor([[-1., 0., 1.], [-2., 0., 2.], [-1., 0., 1.]])
edge = nn.Sequential(nn.Conv2d(1, 1, 3, padding=1, bias=False), nn.ReLU())
edge[0].weight[0, 0] = sobel
img = torch.rand(1, 1, 8, 8)
print(edge(img).shape)
