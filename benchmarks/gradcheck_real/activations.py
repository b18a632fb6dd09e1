"""Memory-efficient activations: a custom Function per activation that saves only the input
and recomputes the derivative in backward. Re-written (same formulas, shortened) after

- timm, timm/layers/activations_me.py (Swish, Mish, HardSigmoid, HardSwish, HardMish):
  https://github.com/huggingface/pytorch-image-models/blob/main/timm/layers/activations_me.py
- EfficientNet-PyTorch, efficientnet_pytorch/utils.py (SwishImplementation):
  https://github.com/lukemelas/EfficientNet-PyTorch/blob/master/efficientnet_pytorch/utils.py
"""

import torch
from torch.nn import functional as F


class SwishAutoFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.mul(torch.sigmoid(x))

    @staticmethod
    def backward(ctx, grad_output):
        x = ctx.saved_tensors[0]
        s = torch.sigmoid(x)
        return grad_output * (s * (1 + x * (1 - s)))


class MishAutoFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.mul(torch.tanh(F.softplus(x)))

    @staticmethod
    def backward(ctx, grad_output):
        x = ctx.saved_tensors[0]
        t = F.softplus(x).tanh()
        return grad_output.mul(t + x * torch.sigmoid(x) * (1 - t * t))


class HardSigmoidAutoFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x + 3).clamp(min=0, max=6).div(6.0)

    @staticmethod
    def backward(ctx, grad_output):
        x = ctx.saved_tensors[0]
        return grad_output * (torch.ones_like(x) * ((x >= -3.0) & (x <= 3.0)) / 6.0)


class HardSwishAutoFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * (x + 3).clamp(min=0, max=6).div(6.0)

    @staticmethod
    def backward(ctx, grad_output):
        x = ctx.saved_tensors[0]
        m = torch.ones_like(x) * (x >= 3.0)
        m = torch.where((x >= -3.0) & (x <= 3.0), x / 3.0 + 0.5, m)
        return grad_output * m


class HardMishAutoFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 0.5 * x * (x + 2).clamp(min=0, max=2)

    @staticmethod
    def backward(ctx, grad_output):
        x = ctx.saved_tensors[0]
        m = torch.ones_like(x) * (x >= -2.0)
        m = torch.where((x >= -2.0) & (x <= 0.0), x + 1.0, m)
        return grad_output * m


class SwishImplementation(torch.autograd.Function):
    """EfficientNet-PyTorch's variant."""

    @staticmethod
    def forward(ctx, i):
        ctx.save_for_backward(i)
        return i * torch.sigmoid(i)

    @staticmethod
    def backward(ctx, grad_output):
        i = ctx.saved_tensors[0]
        sig = torch.sigmoid(i)
        return grad_output * (sig * (1 + i * (1 - sig)))
