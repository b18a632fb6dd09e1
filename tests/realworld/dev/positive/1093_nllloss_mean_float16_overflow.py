# source: https://github.com/pytorch/pytorch/issues/29429
# framework: torch
# family: E
# kind: large-sum-low-precision
# pitfall: a segmentation loss is computed entirely in float16 (model output and NLLLoss .half()); the mean over 32x256x256 pixels first sums two million values in half precision, which overflows to inf/nan, and the model does not train
# expect: line 18 — the reduced loss accumulates over ~2M float16 values (max 65504): the sum overflows and the mean is nan; compute the loss in float32
# checked: ran, reproduces on CPU (the reduced loss is nan; the thread used .cuda(), replaced here by .to(device))

import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
input = torch.rand(32, 11, 256, 256).to(device).half()
target = torch.LongTensor(32, 256, 256).random_(0, 10).to(device)
loss1 = nn.NLLLoss(reduce=False).to(device).half()
loss2 = nn.NLLLoss(reduce=True, reduction='mean').to(device).half()
print(torch.mean(loss1(input, target)))
print(loss2(input, target))
