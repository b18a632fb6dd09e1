# source: negative twin of a variant of 1048_gradcheck_linear_float32.py
# framework: torch
# family: E
# kind: gradcheck-float32
# negative: the factory default is dtype=torch.float64, so gradcheck runs in double precision
# mimics: positive/1048_v1_fn_helper_factory.py
# expect: no finding
# checked: ran, gradcheck passes
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


def make_inputs(n=8, d=6, dtype=torch.float64):
    x = torch.randn(n, d, dtype=dtype, requires_grad=True)
    w = torch.randn(d, d, dtype=dtype, requires_grad=True)
    return x, w


def check_function(fn, inputs):
    return gradcheck(fn, inputs, eps=1e-6, atol=1e-4)


def test_scaled_tanh():
    assert check_function(ScaledTanh.apply, make_inputs())


test_scaled_tanh()
