# source: https://github.com/rwightman/gen-efficientnet-pytorch/issues/16
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: a memory-saving Mish activation multiplies its input in place by tanh(softplus(x)); softplus saved x for its backward, so training through the activation breaks (the maintainer hit the in-place gradient error and switched to x.mul)
# expect: line 18 — x.mul_(...) overwrites the tensor softplus saved: "one of the variables needed for gradient computation has been modified by an inplace operation"
# checked: ran, reproduces (CPU); the Mish module is quoted verbatim in the thread (ultralytics/yolov3 models.py), the conv/batch-norm driver is reconstructed
import torch
import torch.nn as nn
import torch.nn.functional as F


class Mish(nn.Module):  # https://github.com/digantamisra98/Mish
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.mul_(F.softplus(x).tanh())


model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), Mish(),
                      nn.Conv2d(16, 8, 3, padding=1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
imgs = torch.randn(4, 3, 32, 32)
loss = model(imgs).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
