# source: variant of 3091_boltzmann_transform_exp_idiv.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: hand-written softmax: torch.exp saves its output and .div_() normalises it in place
# expect: line 14 — probs.div_(probs.sum(...)) on the output that exp saved
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [4, 5]], which is output 0 of Exp, is at version 1; expected version 0 )
import torch


def stable_softmax(logits, dim=-1):
    shifted = logits - logits.max(dim=dim, keepdim=True).values
    probs = torch.exp(shifted)
    probs.div_(probs.sum(dim=dim, keepdim=True))
    return probs


x = torch.randn(4, 5, requires_grad=True)
p = stable_softmax(x)
(p * torch.arange(5.)).sum().backward()
