# source: variant of 1117_yolov5_initialize_biases_view_inplace.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: none — prior bias via nn.init.constant_
# checked: ran, no error (exit 0)
import math
import torch
import torch.nn as nn


class RetinaHead(nn.Module):
    def __init__(self, in_ch=8, num_anchors=9, num_classes=4, prior=0.01):
        super().__init__()
        self.cls_logits = nn.Conv2d(in_ch, num_anchors * num_classes, 3, padding=1)
        bias_value = -math.log((1 - prior) / prior)
        nn.init.constant_(self.cls_logits.bias, bias_value)

    def forward(self, x):
        return self.cls_logits(x)


head = RetinaHead()
