# source: variant of 1156_megablocks_router_norm_inplace.py (fixed negative twin)
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: none — top-k weights renormalised in place by their sum (topk does not save its values; sum does not save its input)
# checked: ran, no error (exit 0)
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
        expert_weights /= expert_weights.sum(dim=-1, keepdim=True)
        return expert_weights, expert_indices


r = Router()
w, idx = r(torch.randn(6, 16))
w.sum().backward()
