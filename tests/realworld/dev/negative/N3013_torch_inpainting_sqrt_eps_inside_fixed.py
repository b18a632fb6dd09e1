# source: https://github.com/daa233/generative-inpainting-pytorch/pull/42
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: merged fix: add escape_NaN inside the sqrt (torch.pow(wi, 2) + escape_NaN) so the sqrt argument is never 0 and its derivative stays finite.
# expect: no finding
# checked: ran (torch 2.13 CPU): w.grad finite
import torch
import torch.nn.functional as F


def reduce_sum(x, axis=None, keepdim=False):  # from the repo's utils/tools.py
    if not axis:
        axis = range(len(x.shape))
    for i in sorted(axis, reverse=True):
        x = torch.sum(x, dim=i, keepdim=keepdim)
    return x


# stubs (shrunk): one batch element of ContextualAttention.forward
torch.manual_seed(0)
w = torch.randn(1, 4, 3, 3, 3)
w[:, 0] = 0.0  # background patch inside the hole -> all zeros
w.requires_grad_(True)
xi = torch.randn(1, 3, 6, 6)

escape_NaN = torch.FloatTensor([1e-4])
wi = w[0]  # [L, C, k, k]
max_wi = torch.sqrt(reduce_sum(torch.pow(wi, 2) + escape_NaN, axis=[1, 2, 3], keepdim=True))
wi_normed = wi / max_wi
yi = F.conv2d(xi, wi_normed, stride=1, padding=1)
yi.sum().backward()
print(torch.isnan(w.grad).any())
