# source: variant of 1093_nllloss_mean_float16_overflow.py
# framework: torch
# family: E
# kind: large-sum-low-precision
# pitfall: per-pixel float16 losses (reduction='none') are averaged by hand as .sum() / .numel(); the float16 sum of ~2M terms overflows to inf
# expect: line 20 — float16 sum of ~2M per-pixel losses divided by their count
# checked: ran, reproduces on CPU (inf; with pixel_loss.float() it is finite)
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class PixelLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.nll = nn.NLLLoss(reduction="none")

    def forward(self, log_probs, target):
        pixel_loss = self.nll(log_probs, target)
        return pixel_loss.sum() / pixel_loss.numel()


logp = torch.rand(32, 11, 256, 256, device=device).half()
target = torch.randint(0, 10, (32, 256, 256), device=device)
print(PixelLoss()(-logp, target))
