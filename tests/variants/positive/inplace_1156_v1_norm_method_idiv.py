# source: variant of 1156_megablocks_router_norm_inplace.py
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: router normalises top-k weights in place with .norm(p=1) method spelling; the norm saved the weights
# expect: line 21 — expert_weights /= expert_weights.norm(p=1, ...) on the tensor norm saved
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [6, 2]], which is output 0 of Div, is at version 1; expected version 0 )
import torch
import torch.nn as nn


class Router(nn.Module):
    def __init__(self, d=16, n_experts=8, top_k=2):
        super().__init__()
        self.layer = nn.Linear(d, n_experts, bias=False)
        self.top_k = top_k

    def forward(self, x):
        scores = self.layer(x).softmax(dim=-1)
        expert_weights, expert_indices = torch.topk(scores, self.top_k, dim=-1)
        expert_weights /= expert_weights.norm(p=1, dim=-1, keepdim=True)
        return expert_weights, expert_indices


r = Router()
w, idx = r(torch.randn(6, 16))
w.sum().backward()
