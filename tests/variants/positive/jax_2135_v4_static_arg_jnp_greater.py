# source: variant of 2135_jax_static_arg_compared_via_jnp_array.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: n is static (static_argnums), but jnp.greater(n, 1) is staged under jit, so the Python if receives a tracer
# expect: line 15 — Python if on a jax.numpy comparison function applied to the static n
# checked: ran, reproduces (TracerBoolConversionError)
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def pad_or_not(x, n):
    if jnp.greater(n, 1):
        return jnp.pad(x, (0, n))
    return x


pad_or_not(jnp.ones(3), 3)
