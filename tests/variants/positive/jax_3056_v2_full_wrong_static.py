# source: variant of 3056_jax_jit_lax_full_traced_length.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: static_argnums marks argument 0 static but the length is argument 1, which stays traced and is used as a jnp.full dimension
# expect: line 16 — jnp.full with a shape built from the traced argument max_len
# checked: ran, reproduces (TypeError: Shapes must be 1D sequences of concrete values of integer type)
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def make_padding_mask(pad_id, max_len, tokens):
    mask = jnp.full((max_len,), False)
    return mask.at[: tokens.shape[0]].set(tokens != pad_id)


make_padding_mask(0, 8, jnp.array([3, 4, 0]))
