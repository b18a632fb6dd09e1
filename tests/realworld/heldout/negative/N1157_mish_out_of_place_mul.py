# source: https://github.com/rwightman/gen-efficientnet-pytorch/issues/16
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the maintainer's resolution: the out-of-place x.mul(...) used in gen-efficientnet (the in-place variant was left as dead code because it raised the in-place gradient error)
# mimics: positive/1157_yolov3_mish_inplace_mul.py
# expect: no finding
# checked: ran, no error
import torch
import torch.nn as nn
import torch.nn.functional as F


class Mish(nn.Module):  # https://github.com/digantamisra98/Mish
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.mul(F.softplus(x).tanh())


model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), Mish(),
                      nn.Conv2d(16, 8, 3, padding=1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
imgs = torch.randn(4, 3, 32, 32)
loss = model(imgs).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
