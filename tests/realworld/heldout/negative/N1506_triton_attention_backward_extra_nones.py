# source: https://github.com/triton-lang/triton/issues/7666
# framework: torch
# family: F
# kind: other-custom-function-gradient-count
# negative: backward returns one more None than forward has inputs; autograd accepts trailing None gradients beyond the inputs, so this custom Function is correct
# mimics: a custom autograd.Function whose backward returns a different number of values than forward's inputs
# expect: no finding
# checked: ran, no error

import torch


class _attention(torch.autograd.Function):

    @staticmethod
    def forward(ctx, q, k, v, causal, sm_scale, warp_specialize=True):
        p = torch.softmax((q @ k.transpose(-1, -2)) * sm_scale, dim=-1)
        o = p @ v
        ctx.save_for_backward(q, k, v, p)
        ctx.sm_scale = sm_scale
        ctx.causal = causal
        return o

    @staticmethod
    def backward(ctx, do):
        q, k, v, p = ctx.saved_tensors
        dv = p.transpose(-1, -2) @ do
        dp = do @ v.transpose(-1, -2)
        ds = p * (dp - (dp * p).sum(-1, keepdim=True))
        dq = ds @ k * ctx.sm_scale
        dk = ds.transpose(-1, -2) @ q * ctx.sm_scale
        return dq, dk, dv, None, None, None, None


attention = _attention.apply
q, k, v = (torch.randn(2, 4, 8, requires_grad=True) for _ in range(3))
attention(q, k, v, False, 0.5).sum().backward()
