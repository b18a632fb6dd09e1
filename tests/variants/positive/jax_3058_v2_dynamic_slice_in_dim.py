# source: variant of 3058_jax_jit_dynamic_slice_traced_size.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: the slice size of lax.dynamic_slice_in_dim is a traced jit argument
# expect: line 14 — slice size taken from the traced jit argument window
# checked: ran, reproduces (TracerIntegerConversionError)
import jax
from jax import lax
import jax.numpy as jnp


def window_mean(x, start, window):
    return jnp.mean(lax.dynamic_slice_in_dim(x, start, window))


window_mean_jit = jax.jit(window_mean)
print(window_mean_jit(jnp.arange(10.0), 2, 3))
