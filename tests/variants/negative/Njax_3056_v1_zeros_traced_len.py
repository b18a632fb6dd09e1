# source: variant of 3056_jax_jit_lax_full_traced_length.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: pad_to_length is a traced jit argument used as a dimension of jnp.zeros)
# mimics: positive/3056_v1_zeros_traced_len.py
# expect: no finding
# checked: ran, no error (fixed twin)
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def pad_rows(first_row, pad_to_length):
    width = first_row.shape[0]
    out = jnp.zeros((pad_to_length, width), first_row.dtype)
    return out.at[0].set(first_row)


pad_rows(jnp.array([1.0, 2.0]), 4)
