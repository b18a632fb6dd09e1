# source: https://github.com/Ciela-Institute/caustics/pull/83
# framework: torch
# family: E
# kind: where-nan-gradient
# negative: the merged fix's differentiable variant (_f_differentiable): each closed form is evaluated only on the radii of its own branch and written into a zero tensor, so no NaN enters the backward pass
# mimics: positive/1237_caustics_nfw_where_sqrt_both_branches.py
# expect: no finding
# checked: ran, no NaN in the gradient

import torch
from torch import Tensor


class NFW:
    def __init__(self, scale_radius):
        self.scale_radius = scale_radius

    def reduced_deflection_magnitude(self, r):
        x = r / self.scale_radius
        return self._f(x) / x

    @staticmethod
    def _f(x: Tensor) -> Tensor:
        """
        Helper method for computing deflection angles.

        Args:
            x (Tensor): The scaled radius (xi / xi_0).

        Returns:
            Tensor: Result of the deflection angle computation.
        """
        # TODO: generalize beyond torch, or patch Tensor
        f = torch.zeros_like(x)
        f[x > 1] = 1 - 2 / (x[x > 1]**2 - 1).sqrt() * ((x[x > 1] - 1) / (x[x > 1] + 1)).sqrt().arctan()
        f[x < 1] = 1 - 2 / (1 - x[x < 1]**2).sqrt() * ((1 - x[x < 1]) / (1 + x[x < 1])).sqrt().arctanh()
        return f


rs = torch.tensor(1.5, requires_grad=True)
lens = NFW(rs)
r = torch.linspace(0.1, 4.0, 20)
alpha = lens.reduced_deflection_magnitude(r)
alpha.sum().backward()
print('NaN in gradient:', torch.isnan(rs.grad).item())
