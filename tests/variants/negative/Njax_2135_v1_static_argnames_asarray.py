# source: variant of 2135_jax_static_arg_compared_via_jnp_array.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: num_layers is static, but jnp.asarray(num_layers) > 1 is staged under jit, so the Python if gets a tracer)
# mimics: positive/2135_v1_static_argnames_asarray.py
# expect: no finding
# checked: ran, no error (fixed twin)
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("num_layers",))
def stack(x, num_layers):
    if num_layers > 1:
        return jnp.tile(x, (num_layers, 1))
    return x[None]


stack(jnp.ones(3), num_layers=3)
