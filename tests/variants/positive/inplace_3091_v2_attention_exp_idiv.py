# source: variant of 3091_boltzmann_transform_exp_idiv.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: attention weights: exp() of scores inside a Module.forward, then weights /= weights.sum(...) in place
# expect: line 20 — weights /= weights.sum(...) on the exp() output
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2, 5]], which is output 0 of Exp, is at version 1; expected version 0 )
import torch
import torch.nn as nn


class AdditiveAttention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.score = nn.Linear(d, 1)

    def forward(self, h):
        e = self.score(h).squeeze(-1)
        weights = e.exp()
        weights /= weights.sum(dim=1, keepdim=True)
        return (weights.unsqueeze(-1) * h).sum(1)


att = AdditiveAttention()
att(torch.randn(2, 5, 8)).sum().backward()
