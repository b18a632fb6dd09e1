# source: https://pytorch.org/docs/stable/notes/extending.html
# family: E
# pitfall: pytest for a custom autograd Function runs torch.autograd.gradcheck on default-dtype (float32) inputs
# expect: line 26 — gradcheck with float32 inputs: its finite differences are too imprecise, PyTorch warns and the test fails spuriously; use dtype=torch.float64

import torch
from torch.autograd import gradcheck


class ClampedExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, max_val):
        y = torch.exp(x.clamp(max=max_val))
        ctx.save_for_backward(x, y)
        ctx.max_val = max_val
        return y

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        return grad_out * y * (x <= ctx.max_val), None


def test_clamped_exp_grad():
    x = torch.randn(10, 4, requires_grad=True)
    assert gradcheck(ClampedExp.apply, (x, 3.0), eps=1e-6, atol=1e-4)


if __name__ == "__main__":
    test_clamped_exp_grad()
