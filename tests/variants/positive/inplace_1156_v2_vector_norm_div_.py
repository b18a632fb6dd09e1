# source: variant of 1156_megablocks_router_norm_inplace.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: router normalisation via torch.linalg.vector_norm and div_, the top-k coming from a helper
# expect: line 24 — weights.div_(torch.linalg.vector_norm(weights, ...)) on the saved weights
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [6, 2]], which is output 0 of Div, is at version 1; expected version 0 )
import torch
import torch.nn as nn


def top_k(scores, k):
    return scores.topk(k, dim=-1)


class Router(nn.Module):
    def __init__(self, d=16, n_experts=8):
        super().__init__()
        self.gate = nn.Linear(d, n_experts, bias=False)

    def forward(self, x):
        scores = torch.softmax(self.gate(x), dim=-1)
        weights, idx = top_k(scores, 2)
        weights.div_(torch.linalg.vector_norm(weights, ord=2, dim=-1, keepdim=True))
        return weights, idx


w, _ = Router()(torch.randn(6, 16))
w.sum().backward()
