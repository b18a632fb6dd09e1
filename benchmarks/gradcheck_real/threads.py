"""Custom Functions from PyTorch bug threads (re-written, shortened; the thread says what the
reporter saw):

- ISRLU, https://github.com/pytorch/pytorch/issues/4355 ("gradcheck fails with cryptic error"):
  backward returns the derivative without multiplying by grad_out.
- CustomOp, https://github.com/pytorch/pytorch/issues/30454 ("backward not called with custom
  op"): forward does `x *= 2.0` without ctx.mark_dirty (and backward scales grad_output in place).
- InPlaceAdd, https://github.com/pytorch/pytorch/issues/5871: forward adds into a slice of its
  input without ctx.mark_dirty. (`.resize(1)` of the thread is `.reshape(1)` here.)
- ScaleFunc, https://github.com/pytorch/pytorch/issues/11176: the gradient of the scale is the
  *mean* of grad_output * input where the derivative is the sum.
"""

import torch
from torch.autograd import Function


class ISRLU(Function):
    @staticmethod
    def forward(ctx, tensor, alpha=1):
        negatives = torch.min(tensor, 0 * tensor)
        ctx.nisr = torch.rsqrt(1.0 + alpha * (negatives ** 2))
        return tensor * ctx.nisr

    @staticmethod
    def backward(ctx, grad_out):
        return ctx.nisr ** 3, None


class CustomOp(Function):
    @staticmethod
    def forward(ctx, x):
        x *= 2.0
        return x

    @staticmethod
    def backward(ctx, grad_output):
        grad_output *= 2.0
        return grad_output


class InPlaceAdd(Function):
    @staticmethod
    def forward(ctx, a, b):
        a[1:2] += b
        return a

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output[1:2].reshape(1)


class ScaleFunc(Function):
    @staticmethod
    def forward(ctx, input, scale):
        ctx.save_for_backward(input, scale)
        return input * scale

    @staticmethod
    def backward(ctx, grad_output):
        input, scale = ctx.saved_tensors
        return grad_output * scale, torch.mean(grad_output * input)
