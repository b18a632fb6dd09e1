"""Gradient reversal and gradient scaling: forward is the identity, backward multiplies the
gradient by a factor on purpose. Re-written (shortened) after

- DANN, models/functions.py (ReverseLayerF): https://github.com/fungtion/DANN/blob/master/models/functions.py
- fairseq, fairseq/modules/grad_multiply.py (GradMultiply):
  https://github.com/facebookresearch/fairseq/blob/main/fairseq/modules/grad_multiply.py
- cvpods, cvpods/modeling/nn_utils/scale_grad.py (_ScaleGradient):
  https://github.com/Megvii-BaseDetection/cvpods/blob/master/cvpods/modeling/nn_utils/scale_grad.py
- deepcourse, docs/code/da/grl.py (GradientReversal, factor saved as a tensor):
  https://github.com/arthurdouillard/deepcourse/blob/master/docs/code/da/grl.py
- DAStylizedTraining, grl.py (hook layers):
  https://github.com/francisbrochu/DAStylizedTraining/blob/master/grl.py
- MCD_DA, segmentation/models/grad_reversal.py (legacy, non-static Function):
  https://github.com/mil-tokyo/MCD_DA/blob/master/segmentation/models/grad_reversal.py
"""

import torch
from torch import nn
from torch.autograd import Function


class ReverseLayerF(Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.alpha, None


class GradMultiply(Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.new(x)

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.scale, None


class ScaleGradient(Function):
    @staticmethod
    def forward(ctx, input, scale):
        ctx.scale = scale
        return input

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.scale, None


class GradientReversal(Function):
    @staticmethod
    def forward(ctx, x, factor=-1):
        ctx.save_for_backward(torch.tensor(factor))
        return x

    @staticmethod
    def backward(ctx, grad):
        (factor,) = ctx.saved_tensors
        return factor * grad, None


class GradientReversalLayer(nn.Module):
    def forward(self, x):
        x.register_hook(lambda grad: grad * -1)
        return x


class LambdaLayer(nn.Module):
    def __init__(self, lambda_param=0.1):
        super().__init__()
        self.lambda_param = lambda_param

    def forward(self, x):
        x.register_hook(lambda grad: grad * self.lambda_param)
        return x


class GradReverse(Function):
    """Old-style: __init__(lambd) and instance forward/backward; torch 2 calls them as
    staticmethods with ctx as self, so self.lambd never exists."""

    def __init__(self, lambd):
        self.lambd = lambd

    def forward(self, x):
        return x.view_as(x)

    def backward(self, grad_output):
        return grad_output * -self.lambd
