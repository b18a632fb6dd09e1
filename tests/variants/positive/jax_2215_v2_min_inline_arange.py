# source: variant of 2215_jax_jnp_minimum_of_static_shape_traced.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: jnp.minimum(x.shape[0], max_len) is a tracer under jit (max_len is static), used directly as the size of jnp.arange
# expect: line 15 — jnp.minimum on static shape values, used as the jnp.arange size
# checked: ran, reproduces (ConcretizationTypeError in jnp.arange)
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("max_len",))
def positions(x, max_len):
    return jnp.arange(jnp.minimum(x.shape[0], max_len))


positions(jnp.ones(10), max_len=5)
