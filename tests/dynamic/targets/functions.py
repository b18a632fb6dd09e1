"""Small targets with known verdicts, for the in-process and the isolated checks."""

import torch
from torch import Tensor, nn


def smooth(x, y):
    return (torch.sin(x) * y).sum(dim=-1)


def mse_sum(x):
    target = torch.linspace(-1.0, 1.0, x.numel(), dtype=x.dtype).reshape(x.shape)
    return nn.functional.mse_loss((x + 1) / 2, target, reduction="sum")


class ScaledSoftplus(torch.autograd.Function):
    """softplus with a backward that is 1% too large."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return nn.functional.softplus(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * torch.sigmoid(x) * 1.01


class TransposedSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return nn.functional.softplus(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * torch.sigmoid(x.t())


class NoisyBackward(torch.autograd.Function):
    """A backward that returns different values on identical calls."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2 + 1e-3 * torch.rand_like(g)


def relu_at_zero(x):
    return torch.relu(x * 0)  # every element sits exactly on the kink


def detached_half(x, y):
    return (x * y.detach()).sum() + (y.detach() ** 2).sum()


def cut_graph(x):
    return torch.tensor(x.detach().numpy() ** 2).sum() + x.sum()


def nan_gradient(x):
    # the classic torch.where trap: the forward is finite, the gradient is NaN at x <= 0
    return torch.where(x > 0, torch.sqrt(x), torch.zeros_like(x)).sum()


def log_of(x):
    return torch.log(x)


def recip(a):
    return 1 / a


def recip_grad(a):
    return -1 / a**2


def recip_grad_wrong(a):
    return -1 / a


def with_dropout(x):
    return nn.functional.dropout(x, p=0.5, training=True) * x


# jaxtyping-style string annotations; jaxtyping itself need not be installed
def annotated(x: "Float[Tensor, 'batch 3']", w: "Float[Tensor, '3 out']") -> Tensor:  # noqa: F821
    return torch.tanh(x @ w)


def plain_hint(x: Tensor) -> Tensor:
    return torch.exp(x).sum()


def needs_matmul(a, b):
    return a @ b


def needs_positive(x):
    return torch.sqrt(x).sum()


def unguessable(x, y, z):
    return torch.einsum("ij,jk,kl->il", x, y, z.reshape(7, 2))


class TinyMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 5), nn.Tanh(), nn.Linear(5, 2))

    def forward(self, x):
        return self.net(x)


class TinyConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, kernel_size=3)

    def forward(self, x):
        return self.conv(x).tanh().mean(dim=(2, 3))


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(11, 4)
        self.out = nn.Linear(4, 1)

    def forward(self, idx):
        return self.out(self.emb(idx)).sum()


class NeedsArgs(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.lin = nn.Linear(width, 1)


class Scaler:
    def __init__(self):
        self.factor = 3.0

    def apply(self, x):
        return self.factor * x
