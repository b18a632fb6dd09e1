# source: https://github.com/databricks/megablocks/pull/70
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# negative: the merged fix (PR #70): divide out of place
# mimics: positive/1156_megablocks_router_norm_inplace.py
# expect: no finding
# checked: ran, no error
import torch
from types import SimpleNamespace


class _UniformExpertAssignment(torch.autograd.Function):


    @staticmethod
    def forward(ctx, x, num_experts):
        out = torch.arange(x.numel(), dtype=x.dtype, device=x.device)
        out = torch.remainder(out, num_experts)
        return out.view(x.shape)
_uniform_expert_assignment = _UniformExpertAssignment.apply


class LearnedRouter(torch.nn.Module):

    def __init__(self, args):
        super().__init__()
        self.args = args
        self.layer = torch.nn.Linear(
            args.hidden_size,
            args.moe_num_experts,
            bias=False,
            dtype=torch.float32,
            device=args.device)
        args.init_method(self.layer.weight)

    def jitter(self, x):
        low = 1.0 - self.args.moe_jitter_eps
        high = 1.0 + self.args.moe_jitter_eps
        noise = torch.rand(x.size(), dtype=x.dtype, device=x.device)
        return low + noise * (high - low)

    def _top_k(self, scores):
        if self.args.moe_top_k == 1:
            return scores.max(dim=-1)
        return torch.topk(scores, self.args.moe_top_k, dim=-1)


    def forward(self, x):
        if self.training and self.args.moe_jitter_eps is not None:
            x = x * self.jitter(x)

        scores = self.layer(x.view(-1, x.shape[-1])).softmax(dim=-1)
        expert_weights, expert_indices = self._top_k(scores)
        if self.args.moe_normalize_expert_weights:
            expert_weights = expert_weights / torch.norm(
                expert_weights, p=self.args.moe_normalize_expert_weights,dim=-1, keepdim=True)

        expert_indices = (
            _uniform_expert_assignment(expert_indices, self.args.moe_num_experts)
            if self.args.uniform_expert_assignment else expert_indices
        )
        return scores, expert_weights, expert_indices


args = SimpleNamespace(hidden_size=32, moe_num_experts=8, moe_top_k=2, moe_jitter_eps=None,
                       moe_normalize_expert_weights=1, uniform_expert_assignment=False,
                       device="cpu", init_method=torch.nn.init.normal_)
router = LearnedRouter(args)
x = torch.randn(4, 16, 32)
scores, expert_weights, expert_indices = router(x)
expert_weights.sum().backward()
