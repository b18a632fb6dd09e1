# source: variant of 3056_jax_jit_lax_full_traced_length.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: pad_to_length is a traced jit argument used as a dimension of jnp.zeros
# expect: line 15 — a shape built from the traced jit argument pad_to_length
# checked: ran, reproduces (TypeError: Shapes must be 1D sequences of concrete values of integer type)
import jax
import jax.numpy as jnp


@jax.jit
def pad_rows(first_row, pad_to_length):
    width = first_row.shape[0]
    out = jnp.zeros((pad_to_length, width), first_row.dtype)
    return out.at[0].set(first_row)


pad_rows(jnp.array([1.0, 2.0]), 4)
