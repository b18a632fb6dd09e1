# source: variant of 1117_yolov5_initialize_biases_view_inplace.py
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: focal-loss prior for a classification head: self.cls_logits.bias is filled in place with the prior bias outside no_grad (RetinaNet-style, without nn.init.constant_)
# expect: line 18 — self.cls_logits.bias.fill_(bias_value) on a parameter
# checked: ran, reproduces (RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.)
import math
import torch
import torch.nn as nn


class RetinaHead(nn.Module):
    def __init__(self, in_ch=8, num_anchors=9, num_classes=4, prior=0.01):
        super().__init__()
        self.cls_logits = nn.Conv2d(in_ch, num_anchors * num_classes, 3, padding=1)
        bias_value = -math.log((1 - prior) / prior)
        self.cls_logits.bias.fill_(bias_value)

    def forward(self, x):
        return self.cls_logits(x)


head = RetinaHead()
