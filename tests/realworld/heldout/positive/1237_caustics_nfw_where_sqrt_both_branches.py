# source: https://github.com/Ciela-Institute/caustics/pull/83
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: the NFW deflection helper _f picks between the x > 1 and x < 1 closed forms with torch.where, but both branches are evaluated on every radius: (x**2 - 1).sqrt() is NaN inside the scale radius and (1 - x**2).sqrt() outside it, so gradients with respect to the lens parameters are NaN
# expect: line 33 — torch.where over branches that are NaN where they are not selected; the merged fix adds a differentiable variant that computes each branch only on its own mask (f[x > 1] = ..., f[x < 1] = ...)
# checked: ran, reproduces (NaN in the gradient of the Einstein-radius-like parameter); caustic/lenses/nfw.py _f at 435118b^1 verbatim inside a reduced NFW lens (deflection magnitude only)

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
        return torch.where(
            x > 1,
            1 - 2 / (x**2 - 1).sqrt() * ((x - 1) / (x + 1)).sqrt().arctan(),
            torch.where(
                x < 1,
                1 - 2 / (1 - x**2).sqrt() * ((1 - x) / (1 + x)).sqrt().arctanh(),
                0.0,
            ),
        )


rs = torch.tensor(1.5, requires_grad=True)
lens = NFW(rs)
r = torch.linspace(0.1, 4.0, 20)
alpha = lens.reduced_deflection_magnitude(r)
alpha.sum().backward()
print('NaN in gradient:', torch.isnan(rs.grad).item())
