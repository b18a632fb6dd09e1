# source: https://github.com/pytorch/pytorch/issues/6166
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: a segmentation loss built with NLLLoss(reduce=False) returns a (batch, height, width) tensor and loss.backward() is called on it directly
# expect: line 19 — the unreduced per-pixel loss is not a scalar; backward() needs .mean()/.sum() (or an explicit gradient)
# checked: ran, reproduces

import torch

logsoftmax = torch.nn.LogSoftmax(dim=1)
criterion = torch.nn.NLLLoss(reduce=False)

outputs = torch.randn(2, 5, 8, 8, requires_grad=True)
labels = torch.randint(0, 5, (2, 8, 8))

outputs = logsoftmax(outputs)
loss = criterion(outputs, labels)
loss.backward()
