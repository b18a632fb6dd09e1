"""Sparse probability mappings with hand-written backward passes. Re-written (shortened) after
deep-spin/entmax, entmax/activations.py:
https://github.com/deep-spin/entmax/blob/master/entmax/activations.py

Sparsemax3d is the same SparsemaxFunction applied to a 3-d input, as reported in
https://github.com/deep-spin/entmax/issues/13 ("Unexpected behaviour of sparsemax gradients for
3d tensors"): `supp_size.squeeze()` drops the singleton middle dimension too, so v_hat
broadcasts across rows.
"""

import torch
from torch.autograd import Function


def _ix_like(x, dim):
    rho = torch.arange(1, x.size(dim) + 1, dtype=x.dtype)
    view = [1] * x.dim()
    view[0] = -1
    return rho.view(view).transpose(0, dim)


def _threshold_and_support(x, dim):
    srt, _ = torch.sort(x, descending=True, dim=dim)
    cumsum = srt.cumsum(dim) - 1
    support = _ix_like(x, dim) * srt > cumsum
    size = support.sum(dim=dim).unsqueeze(dim)
    tau = cumsum.gather(dim, size - 1) / size.to(x.dtype)
    return tau, size


class SparsemaxFunction(Function):
    @staticmethod
    def forward(ctx, input, dim=0):
        ctx.dim = dim
        input = input - input.max(dim=dim, keepdim=True)[0]
        tau, supp_size = _threshold_and_support(input, dim)
        output = torch.clamp(input - tau, min=0)
        ctx.save_for_backward(supp_size, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        supp_size, output = ctx.saved_tensors
        dim = ctx.dim
        grad_input = grad_output.clone()
        grad_input[output == 0] = 0
        v_hat = grad_input.sum(dim=dim) / supp_size.to(output.dtype).squeeze()
        v_hat = v_hat.unsqueeze(dim)
        grad_input = torch.where(output != 0, grad_input - v_hat, grad_input)
        return grad_input, None


def _tsallis_threshold(x, dim):
    srt, _ = torch.sort(x, descending=True, dim=dim)
    rho = _ix_like(x, dim)
    mean = srt.cumsum(dim) / rho
    mean_sq = (srt ** 2).cumsum(dim) / rho
    delta = (1 - rho * (mean_sq - mean ** 2)) / rho
    tau = mean - torch.sqrt(torch.clamp(delta, 0))
    size = (tau <= srt).sum(dim).unsqueeze(dim)
    return tau.gather(dim, size - 1)


class Tsallis15Function(Function):
    """entmax15."""

    @staticmethod
    def forward(ctx, X, dim=0):
        ctx.dim = dim
        X = (X - X.max(dim=dim, keepdim=True)[0]) / 2
        Y = torch.clamp(X - _tsallis_threshold(X, dim), min=0) ** 2
        ctx.save_for_backward(Y)
        return Y

    @staticmethod
    def backward(ctx, dY):
        (Y,) = ctx.saved_tensors
        gppr = Y.sqrt()
        dX = dY * gppr
        q = (dX.sum(ctx.dim) / gppr.sum(ctx.dim)).unsqueeze(ctx.dim)
        dX -= q * gppr
        return dX, None


Sparsemax3d = SparsemaxFunction  # the case of issue 13 differs only in its input (3-d)
