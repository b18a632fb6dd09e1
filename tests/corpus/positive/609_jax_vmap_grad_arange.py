# source: https://jax.readthedocs.io/en/latest/notebooks/autodiff_cookbook.html
# family: F
# pitfall: derivative of a 1-D function evaluated on a grid built with jnp.arange(5) (integer dtype) via vmap(grad(f))
# expect: line 15 — jax.grad requires float inputs: an int32 grid raises "grad requires real- or complex-valued inputs"; use jnp.arange(5.0) or jnp.linspace

import jax
import jax.numpy as jnp


def potential(r, eps=1.0, sigma=1.0):
    return 4 * eps * ((sigma / (r + 1.0)) ** 12 - (sigma / (r + 1.0)) ** 6)


force = jax.vmap(jax.grad(potential))
print(force(jnp.arange(5)))
