# source: variant of 3091_boltzmann_transform_exp_idiv.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — out-of-place normalisation after exp
# checked: ran, no error (exit 0)
import torch


def stable_softmax(logits, dim=-1):
    shifted = logits - logits.max(dim=dim, keepdim=True).values
    probs = torch.exp(shifted)
    probs = probs / probs.sum(dim=dim, keepdim=True)
    return probs


x = torch.randn(4, 5, requires_grad=True)
p = stable_softmax(x)
(p * torch.arange(5.)).sum().backward()
