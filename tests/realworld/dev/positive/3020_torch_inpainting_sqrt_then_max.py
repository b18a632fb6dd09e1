# source: https://github.com/daa233/generative-inpainting-pytorch/pull/42
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: ContextualAttention normalises background patches by torch.max(torch.sqrt(sum(wi**2)), escape_NaN); the max guards only the forward value — for an all-zero (masked) patch sqrt' is inf and max routes a zero gradient into it, 0*inf = NaN, so training diverges.
# expect: line 29 — torch.sqrt(reduce_sum(torch.pow(wi, 2), ...)) for an all-zero patch
# checked: ran (torch 2.13 CPU), reproduces: nan in w.grad for the all-zero patch
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
max_wi = torch.max(torch.sqrt(reduce_sum(torch.pow(wi, 2),
                                         axis=[1, 2, 3],
                                         keepdim=True)),
                   escape_NaN)
wi_normed = wi / max_wi
yi = F.conv2d(xi, wi_normed, stride=1, padding=1)
yi.sum().backward()
print(torch.isnan(w.grad).any())
