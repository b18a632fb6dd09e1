# source: https://jax.readthedocs.io/en/latest/notebooks/autodiff_cookbook.html
# family: F
# negative: derivatives evaluated at float inputs: a float grid (jnp.arange(5.0)) under vmap(grad) and float(k) for Python loop values
# mimics: jax.grad evaluated on a grid / on loop integers
# expect: no finding

import jax
import jax.numpy as jnp


def potential(r, eps=1.0, sigma=1.0):
    return 4 * eps * ((sigma / (r + 1.0)) ** 12 - (sigma / (r + 1.0)) ** 6)


force = jax.vmap(jax.grad(potential))
print(force(jnp.arange(5.0)))
dpot = jax.grad(potential)
table = [dpot(float(k)) for k in range(5)]
print(table)
