# source: variant of 1058_conv_y_grad_none_variable.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: a helper returns F.relu(conv(x)); the caller backprops a sum of it and then reads the feature map's .grad, which is None because it is not a leaf
# expect: line 22 — feat.grad of the intermediate feature map is None
# checked: ran, reproduces (feature grad: None)
import torch
import torch.nn as nn
import torch.nn.functional as F


def features(conv, x):
    return F.relu(conv(x))


conv = nn.Conv2d(1, 4, 3)
x = torch.rand(2, 1, 6, 6, requires_grad=True)
feat = features(conv, x)
final = feat.pow(2).sum()
final.backward()
print("feature grad:", feat.grad)
