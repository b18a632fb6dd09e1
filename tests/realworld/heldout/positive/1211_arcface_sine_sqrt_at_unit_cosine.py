# source: https://github.com/ronghuaiyang/arcface-pytorch/issues/91
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: ArcMarginProduct derives sine = sqrt((1 - cos^2).clamp(0, 1)); when a feature is aligned with its class weight (|cos| = 1) the argument is clamped to 0, the square root's derivative is infinite there and the loss becomes NaN (issue #81)
# expect: line 46 — torch.sqrt of a value clamped to a lower bound of exactly 0; the issue asks for .clamp(1e-6, 1) so the square root never sees 0
# checked: ran, reproduces (NaN in the weight gradient for a feature aligned with its class weight); models/metrics.py ArcMarginProduct verbatim except device='cuda' -> cosine.device, with a cross-entropy step

from __future__ import print_function
from __future__ import division
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import Parameter
import math


class ArcMarginProduct(nn.Module):
    r"""Implement of large margin arc distance: :
        Args:
            in_features: size of each input sample
            out_features: size of each output sample
            s: norm of input feature
            m: margin

            cos(theta + m)
        """
    def __init__(self, in_features, out_features, s=30.0, m=0.50, easy_margin=False):
        super(ArcMarginProduct, self).__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.s = s
        self.m = m
        self.weight = Parameter(torch.FloatTensor(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)

        self.easy_margin = easy_margin
        self.cos_m = math.cos(m)
        self.sin_m = math.sin(m)
        self.th = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m

    def forward(self, input, label):
        # --------------------------- cos(theta) & phi(theta) ---------------------------
        cosine = F.linear(F.normalize(input), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - torch.pow(cosine, 2)).clamp(0, 1))
        phi = cosine * self.cos_m - sine * self.sin_m
        if self.easy_margin:
            phi = torch.where(cosine > 0, phi, cosine)
        else:
            phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        # --------------------------- convert label to one-hot ---------------------------
        one_hot = torch.zeros(cosine.size(), device=cosine.device)
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        # -------------torch.where(out_i = {x_i if condition_i else y_i) -------------
        output = (one_hot * phi) + ((1.0 - one_hot) * cosine)  # you can use torch.where if your torch.__version__ is 0.4
        output *= self.s

        return output


metric_fc = ArcMarginProduct(4, 3, s=30, m=0.5)
with torch.no_grad():
    metric_fc.weight.copy_(torch.eye(3, 4) * 2.0)
feature = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.3, 0.5, 0.1, 0.2]], requires_grad=True)
label = torch.tensor([0, 1])
criterion = nn.CrossEntropyLoss()
loss = criterion(metric_fc(feature, label), label)
loss.backward()
print('NaN in weight gradient:', torch.isnan(metric_fc.weight.grad).any().item())
