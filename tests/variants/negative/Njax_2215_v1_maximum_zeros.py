# source: variant of 2215_jax_jnp_minimum_of_static_shape_traced.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: jnp.maximum of two static shape ints is staged under jit and returns a tracer; jnp.zeros then needs a concrete size)
# mimics: positive/2215_v1_maximum_zeros.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


@jax.jit
def pad_to_longest(a, b):
    length = max(a.shape[0], b.shape[0])
    out = jnp.zeros((2, length))
    out = out.at[0, : a.shape[0]].set(a)
    return out.at[1, : b.shape[0]].set(b)


pad_to_longest(jnp.ones(3), jnp.ones(5))
