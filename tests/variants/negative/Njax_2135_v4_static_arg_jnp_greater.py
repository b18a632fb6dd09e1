# source: variant of 2135_jax_static_arg_compared_via_jnp_array.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: n is static (static_argnums), but jnp.greater(n, 1) is staged under jit, so the Python if receives a tracer)
# mimics: positive/2135_v4_static_arg_jnp_greater.py
# expect: no finding
# checked: ran, no error (fixed twin)
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def pad_or_not(x, n):
    if n > 1:
        return jnp.pad(x, (0, n))
    return x


pad_or_not(jnp.ones(3), 3)
