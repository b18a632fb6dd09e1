# source: variant of 3058_jax_jit_dynamic_slice_traced_size.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: in a jitted method the slice size comes from the traced argument k (static_argnames names a different argument)
# expect: line 18 — slice size taken from the traced argument k
# checked: ran, reproduces (TypeError: Shapes must be 1D sequences of concrete values of integer type)
from functools import partial

import jax
import jax.numpy as jnp


class TopK:
    @partial(jax.jit, static_argnames=("self", "axis"))
    def head(self, a, k, axis=0):
        a = jnp.sort(a, axis=axis)[::-1]
        return jax.lax.dynamic_slice(a, (0,), (k,))


print(TopK().head(jnp.arange(5.0), 2))
