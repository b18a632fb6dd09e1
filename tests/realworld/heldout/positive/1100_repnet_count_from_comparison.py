# source: https://github.com/confifu/RepNet-Pytorch/issues/6
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the predicted repetition count is computed as sum((y2pred > 0) / (y1pred + 0.1)); the comparison y2pred > 0 has no gradient, so the count loss never trains the periodicity head y2pred (and with the proposed threshold() change no gradient flows at all where y1pred < 0.1)
# expect: line 21 — (y2pred > 0) is a non-differentiable mask; the count loss only reaches y1pred
# checked: ran, reproduces (the y2pred head gets no gradient from the count loss)

import torch
import torch.nn as nn

head1 = nn.Linear(16, 32)
head2 = nn.Linear(16, 32)
lossMAE = nn.SmoothL1Loss()
X = torch.randn(2, 64, 16)
y1 = torch.rand(2, 64, 32) * 4
y2 = torch.randn(2, 64, 32)

y1pred = head1(X)
y2pred = head2(X)
countpred = torch.sum((y2pred > 0) / (y1pred + 1e-1), 1)
count = torch.sum((y2 > 0) / (y1 + 1e-1), 1)
loss3 = lossMAE(countpred, count)
loss3.backward()
