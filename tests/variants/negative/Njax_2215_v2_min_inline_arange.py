# source: variant of 2215_jax_jnp_minimum_of_static_shape_traced.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: jnp.minimum(x.shape[0], max_len) is a tracer under jit (max_len is static), used directly as the size of jnp.arange)
# mimics: positive/2215_v2_min_inline_arange.py
# expect: no finding
# checked: ran, no error (fixed twin)
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("max_len",))
def positions(x, max_len):
    return jnp.arange(min(x.shape[0], max_len))


positions(jnp.ones(10), max_len=5)
