# source: variant of 1093_nllloss_mean_float16_overflow.py
# framework: torch
# family: E
# kind: large-sum-low-precision
# pitfall: log-probabilities are created in float16 (dtype=torch.float16) and reduced with F.nll_loss's default mean over 32x256x256 pixels; the float16 accumulation overflows and the loss is nan
# expect: line 19 — F.nll_loss mean over ~2M float16 values
# checked: ran, reproduces on CPU (nan, float16)
import torch
import torch.nn.functional as F


def segmentation_loss(log_probs, target):
    return F.nll_loss(log_probs, target)


log_probs = torch.log_softmax(torch.rand(32, 11, 256, 256, dtype=torch.float16), dim=1)
target = torch.randint(0, 10, (32, 256, 256))
print(segmentation_loss(log_probs, target))
print(F.nll_loss(log_probs, target, reduction="mean"))
