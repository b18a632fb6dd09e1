# source: https://github.com/chaiyujin/glow-pytorch/pull/6
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the Glow coupling step updates the second half of the split activation in place (z2 += shift; z2 *= scale); z2 and z1 are views of the same tensor, and z1 was just saved by the coupling network's first convolution, so the in-place updates invalidate it
# expect: line 82 — z2 += shift writes into a view whose base (shared with z1, saved by self.f's conv) autograd needs: "modified by an inplace operation" (the PR replaces the in-place ops with z2 = z2 + shift etc.)
# checked: ran, reproduces (CPU); FlowStep.normal_flow from glow/models.py before the PR (affine coupling, reverse permutation), with small stand-ins for the repository's thops/modules helpers
import torch
import torch.nn as nn
import torch.nn.functional as F


class thops:
    @staticmethod
    def split_feature(tensor, type="split"):
        C = tensor.size(1)
        if type == "split":
            return tensor[:, :C // 2, ...], tensor[:, C // 2:, ...]
        elif type == "cross":
            return tensor[:, 0::2, ...], tensor[:, 1::2, ...]

    @staticmethod
    def cat_feature(tensor_a, tensor_b):
        return torch.cat((tensor_a, tensor_b), dim=1)

    @staticmethod
    def sum(tensor, dim=None):
        for d in sorted(dim, reverse=True):
            tensor = tensor.sum(dim=d)
        return tensor


class ActNorm2d(nn.Module):
    def __init__(self, num_features, scale=1.0):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(1, num_features, 1, 1))
        self.logs = nn.Parameter(torch.zeros(1, num_features, 1, 1))

    def forward(self, input, logdet=None, reverse=False):
        out = (input + self.bias) * torch.exp(self.logs)
        dlogdet = thops.sum(self.logs, dim=[1, 2, 3]) * input.size(2) * input.size(3)
        return out, (logdet + dlogdet if logdet is not None else dlogdet)


def f(in_channels, out_channels, hidden_channels):
    return nn.Sequential(
        nn.Conv2d(in_channels, hidden_channels, 3, padding=1), nn.ReLU(inplace=False),
        nn.Conv2d(hidden_channels, hidden_channels, kernel_size=[1, 1]), nn.ReLU(inplace=False),
        nn.Conv2d(hidden_channels, out_channels, 3, padding=1))


class FlowStep(nn.Module):
    def __init__(self, in_channels, hidden_channels, flow_coupling="affine"):
        super().__init__()
        self.flow_coupling = flow_coupling
        self.actnorm = ActNorm2d(in_channels)
        if flow_coupling == "additive":
            self.f = f(in_channels // 2, in_channels // 2, hidden_channels)
        elif flow_coupling == "affine":
            self.f = f(in_channels // 2, in_channels, hidden_channels)

    def reverse(self, z, rev):
        return z.flip(1)

    def forward(self, input, logdet=None, reverse=False):
        return self.normal_flow(input, logdet)

    def normal_flow(self, input, logdet):
        assert input.size(1) % 2 == 0
        # 1. actnorm
        z, logdet = self.actnorm(input, logdet=logdet, reverse=False)
        # 2. permute
        z = self.reverse(z, False)
        # 3. coupling
        z1, z2 = thops.split_feature(z, "split")
        if self.flow_coupling == "additive":
            z2 += self.f(z1)
        elif self.flow_coupling == "affine":
            h = self.f(z1)
            shift, scale = thops.split_feature(h, "cross")
            scale = torch.sigmoid(scale + 2.)
            z2 += shift
            z2 *= scale
            logdet = thops.sum(torch.log(scale), dim=[1, 2, 3]) + logdet
        z = thops.cat_feature(z1, z2)
        return z, logdet


step = FlowStep(in_channels=8, hidden_channels=32, flow_coupling="affine")
x = torch.randn(4, 8, 16, 16)
z, logdet = step(x, logdet=torch.zeros(4))
nll = 0.5 * (z ** 2).sum(dim=[1, 2, 3]) - logdet
nll.mean().backward()
