# source: https://github.com/Herculens/herculens/issues/58
# framework: jax
# kind: jax-tracer-conversion
# negative: the fix proposed with the issue — allocate with jnp.zeros_like (np -> jnp)
# mimics: positive/2147_herculens_potential_np_zeros_like_under_jit.py
# expect: no finding
# checked: ran the reduced version under jax.jit, no error
import numpy as np
import jax.numpy as jnp


class MassModel(object):
    def __init__(self, mass_model_list):
        self.func_list = mass_model_list
        self._num_func = len(self.func_list)

    def potential(self, x, y, kwargs, k=None):
        """Lensing potential in units of arcsec^2 (works eagerly; fails under jax.jit)."""
        if k is not None:
            return self.func_list[k].function(x, y, **kwargs[k])
        potential = jnp.zeros_like(x)
        for i, func in enumerate(self.func_list):
            potential += func.function(x, y, **kwargs[i])
        return potential

    def fermat_potential(self, x_image, y_image, kwargs_lens, x_source=None, y_source=None, k=None):
        potential = self.potential(x_image, y_image, kwargs_lens, k=k)
        geometry = ((x_image - x_source)**2 + (y_image - y_source)**2) / 2.
        return geometry - potential
