# source: variant of 1048_gradcheck_linear_float32.py
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: a custom autograd Function is gradchecked from a test helper; the inputs come from a factory whose dtype parameter defaults to float32, so the Jacobian comparison is rounding noise
# expect: line 33 — gradcheck on float32 inputs built by make_inputs(dtype=torch.float32)
# checked: ran, reproduces (GradcheckError Jacobian mismatch in float32; passes with dtype=torch.float64)
import torch
from torch.autograd import Function, gradcheck


class ScaledTanh(Function):
    @staticmethod
    def forward(ctx, x, w):
        y = torch.tanh(x @ w)
        ctx.save_for_backward(x, w, y)
        return y

    @staticmethod
    def backward(ctx, grad_out):
        x, w, y = ctx.saved_tensors
        g = grad_out * (1 - y * y)
        return g @ w.t(), x.t() @ g


def make_inputs(n=8, d=6, dtype=torch.float32):
    x = torch.randn(n, d, dtype=dtype, requires_grad=True)
    w = torch.randn(d, d, dtype=dtype, requires_grad=True)
    return x, w


def check_function(fn, inputs):
    return gradcheck(fn, inputs, eps=1e-6, atol=1e-4)


def test_scaled_tanh():
    assert check_function(ScaledTanh.apply, make_inputs())


test_scaled_tanh()
