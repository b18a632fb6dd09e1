"""Minimal reproductions of issue 17: custom Functions, hooks and in-place forwards that the
checker once misjudged or could not probe. Line numbers matter to the tests: they look for
`custom.py:<line>` of the lines marked `# LINE:<name>`."""

import torch


class Doubler(torch.autograd.Function):
    """Writes its input in place without ctx.mark_dirty."""

    @staticmethod
    def forward(ctx, x):
        x *= 2.0  # LINE:doubler
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2.0


class DirtyDoubler(torch.autograd.Function):
    """The same, done right: mark_dirty and return the input."""

    @staticmethod
    def forward(ctx, x):
        x.mul_(2.0)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2.0


def scales_its_second_argument(x, y):
    """Writes y in place on every call: repeated evaluations used to drift."""
    y.mul_(2.0)
    return (x * y).sum()


class FilterBank(torch.autograd.Function):
    """backward returns None for the filter bank, deliberately."""

    @staticmethod
    def forward(ctx, x, bank):
        ctx.save_for_backward(x, bank)
        return x @ bank

    @staticmethod
    def backward(ctx, g):
        x, bank = ctx.saved_tensors
        return g @ bank.t(), None  # LINE:filterbank


class ReversalFunction(torch.autograd.Function):
    """A gradient-reversal layer with its coefficient kept on ctx as a number."""

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return -ctx.alpha * g, None


def reversal_hook(x):
    """A gradient-reversal layer built from a hook on the forward's tensor."""
    y = x * 1.0
    y.register_hook(lambda g: -g)  # LINE:hook
    return y


def half_gradient_hook(x):
    y = x.exp()
    y.register_hook(lambda g: g * 0.5)
    return y.sum()


class SoftThreshold(torch.autograd.Function):
    """New style: the threshold is unpacked in setup_context and kept on ctx."""

    @staticmethod
    def forward(x, lambd):
        return torch.where(x.abs() > lambd, x - lambd * x.sign(), torch.zeros_like(x))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, lambd = inputs
        ctx.save_for_backward(x)
        ctx.lambd = lambd

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (x.abs() > ctx.lambd), None


class KeepsCtx(torch.autograd.Function):
    """New style (setup_context) but forward still takes ctx."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g * 2


class Indexes(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x[10]  # LINE:indexes


class TooFewGradients(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x * scale

    @staticmethod
    def backward(ctx, g):
        return g * ctx.scale  # LINE:toofew


def _sparsemax(z):
    zs, _ = torch.sort(z, dim=-1, descending=True)
    k = torch.arange(1, z.size(-1) + 1, dtype=z.dtype)
    cs = zs.cumsum(-1) - 1
    ksz = (k * zs > cs).to(z.dtype).sum(-1, keepdim=True)
    tau = cs.gather(-1, ksz.long() - 1) / ksz
    return torch.clamp(z - tau, min=0)


class SparsemaxWrongMean(torch.autograd.Function):
    """The mean over the support is taken over the whole row: wrong exactly on the support."""

    @staticmethod
    def forward(ctx, z):
        p = _sparsemax(z)
        ctx.save_for_backward(p)
        return p

    @staticmethod
    def backward(ctx, g):
        (p,) = ctx.saved_tensors
        s = (p > 0).to(g.dtype)
        return s * (g - (g * s).sum(-1, keepdim=True) / p.size(-1))


class SquareTopThreeWrong(torch.autograd.Function):
    """x**2 / 2 whose backward is 10% off on each row's three largest elements."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x / 2

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        top = x >= x.topk(3, dim=-1).values[..., -1:]
        return g * x * torch.where(top, 1.1, 1.0)


def relu_sum(x):
    return torch.relu(x).sum()


class Counter:
    calls = 0


def stateful(x):
    """Not repeatable: every call scales by a growing counter."""
    Counter.calls += 1
    return x * (1.0 + 0.01 * Counter.calls)


class Float32Inside(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.float().exp()
        ctx.save_for_backward(y)
        return y.to(x.dtype)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y.to(g.dtype)


class SignStraightThrough(torch.autograd.Function):
    """sign() forward, identity backward: a straight-through estimator."""

    @staticmethod
    def forward(ctx, x):
        return torch.sign(x)

    @staticmethod
    def backward(ctx, g):
        return g
