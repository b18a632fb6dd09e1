"""Straight-through estimators and surrogate gradients: the backward is deliberately not the
derivative of the forward. Re-written (shortened) after

- BitNet, bitnet/straight_through_estimator.py (STEFunc):
  https://github.com/kyegomez/BitNet/blob/main/bitnet/straight_through_estimator.py
- Dilated-Convolution-with-Learnable-Spacings, DCLS/construct/helpers.py (STEFunction):
  https://github.com/K-H-Ismail/Dilated-Convolution-with-Learnable-Spacings-PyTorch/blob/main/DCLS/construct/helpers.py
- CompressAI, compressai/ops/bound_ops.py (LowerBoundFunction):
  https://github.com/InterDigitalInc/CompressAI/blob/master/compressai/ops/bound_ops.py
- vq-vae-2-pytorch, vqvae.py (the straight-through `input + (quantize - input).detach()`),
  here with rounding as the quantizer: https://github.com/rosinality/vq-vae-2-pytorch/blob/master/vqvae.py
"""

import torch
from torch.nn import functional as F


class STEFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        return torch.sign(torch.clamp(input, min=-1.0, max=1.0))

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class STEFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        return (input > 0).to(input.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return F.hardtanh(grad_output)


class LowerBoundFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bound):
        ctx.save_for_backward(x, bound)
        return torch.max(x, bound)

    @staticmethod
    def backward(ctx, grad_output):
        x, bound = ctx.saved_tensors
        pass_through_if = (x >= bound) | (grad_output < 0)
        return pass_through_if * grad_output, None


def round_straight_through(input):
    quantize = torch.round(input)
    return input + (quantize - input).detach()
