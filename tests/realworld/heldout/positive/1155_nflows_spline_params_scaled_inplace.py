# source: https://github.com/bayesiains/nflows/issues/89
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the spline coupling layer rescales slices of the conditioner's output with /= ; when the user's conditioner ends in a ReLU, those slices are views of a tensor that ReluBackward saved, and the backward pass fails
# expect: line 34 — unnormalized_widths /= ... modifies (through a view) the ReLU output saved for backward: "output 0 of ReluBackward0, is at version 1; expected version 0" (the reporter's fix: out-of-place division)
# checked: ran, reproduces (nflows 0.14; _piecewise_cdf as in nflows/transforms/coupling.py; the conditioner network ending in ReLU is reconstructed from the error message)
import warnings
import numpy as np
import torch
import torch.nn as nn
from nflows.transforms import splines
from nflows.transforms.coupling import PiecewiseRationalQuadraticCouplingTransform


class ReluConditioner(nn.Module):
    def __init__(self, in_features, out_features, hidden_features=71):
        super().__init__()
        self.hidden_features = hidden_features
        self.net = nn.Sequential(nn.Linear(in_features, hidden_features), nn.ReLU(),
                                 nn.Linear(hidden_features, out_features), nn.ReLU())

    def forward(self, inputs, context=None):
        return self.net(inputs)


class MyCoupling(PiecewiseRationalQuadraticCouplingTransform):
    def _piecewise_cdf(self, inputs, transform_params, inverse=False):
        unnormalized_widths = transform_params[..., : self.num_bins]
        unnormalized_heights = transform_params[..., self.num_bins : 2 * self.num_bins]
        unnormalized_derivatives = transform_params[..., 2 * self.num_bins :]

        if hasattr(self.transform_net, "hidden_features"):
            unnormalized_widths /= np.sqrt(self.transform_net.hidden_features)
            unnormalized_heights /= np.sqrt(self.transform_net.hidden_features)
        elif hasattr(self.transform_net, "hidden_channels"):
            unnormalized_widths /= np.sqrt(self.transform_net.hidden_channels)
            unnormalized_heights /= np.sqrt(self.transform_net.hidden_channels)
        else:
            warnings.warn(
                "Inputs to the softmax are not scaled down: initialization might be bad."
            )

        if self.tails is None:
            spline_fn = splines.rational_quadratic_spline
            spline_kwargs = {}
        else:
            spline_fn = splines.unconstrained_rational_quadratic_spline
            spline_kwargs = {"tails": self.tails, "tail_bound": self.tail_bound}

        return spline_fn(
            inputs=inputs,
            unnormalized_widths=unnormalized_widths,
            unnormalized_heights=unnormalized_heights,
            unnormalized_derivatives=unnormalized_derivatives,
            inverse=inverse,
            min_bin_width=self.min_bin_width,
            min_bin_height=self.min_bin_height,
            min_derivative=self.min_derivative,
            **spline_kwargs
        )


mask = torch.tensor([1, 0, 1, 0])
transform = MyCoupling(mask, lambda i, o: ReluConditioner(i, o), num_bins=8, tails="linear", tail_bound=3.0)
x = torch.randn(256, 4)
z, logabsdet = transform(x)
loss = -(logabsdet - 0.5 * (z ** 2).sum(-1)).mean()
loss.backward()
