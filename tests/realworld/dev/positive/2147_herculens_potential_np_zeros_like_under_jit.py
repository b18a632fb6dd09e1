# source: https://github.com/Herculens/herculens/issues/58
# framework: jax
# family: A
# kind: jax-tracer-conversion
# pitfall: MassModel.potential allocates its accumulator with NumPy's np.zeros_like(x); called inside a numpyro/NUTS log-density under jax.jit, x is a tracer and NumPy conversion raises TracerArrayConversionError
# expect: line 21 — np.zeros_like on the traced coordinates inside a function that is jitted and differentiated
# checked: ran a reduced version (np.zeros_like accumulator plus jnp terms), reproduces under jax.jit (TracerArrayConversionError) and works eagerly; the surrounding class is reconstructed from the description of the root cause and its np -> jnp fix
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
        potential = np.zeros_like(x)
        for i, func in enumerate(self.func_list):
            potential += func.function(x, y, **kwargs[i])
        return potential

    def fermat_potential(self, x_image, y_image, kwargs_lens, x_source=None, y_source=None, k=None):
        potential = self.potential(x_image, y_image, kwargs_lens, k=k)
        geometry = ((x_image - x_source)**2 + (y_image - y_source)**2) / 2.
        return geometry - potential
