# source: variant of 3058_jax_jit_dynamic_slice_traced_size.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: the slice size of lax.dynamic_slice_in_dim is a traced jit argument)
# mimics: positive/3058_v2_dynamic_slice_in_dim.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
from jax import lax
import jax.numpy as jnp


def window_mean(x, start, window):
    return jnp.mean(lax.dynamic_slice_in_dim(x, start, window))


window_mean_jit = jax.jit(window_mean, static_argnames="window")
print(window_mean_jit(jnp.arange(10.0), 2, 3))
