# source: variant of 3058_jax_jit_dynamic_slice_traced_size.py
# framework: jax
# kind: jax-concretization
# negative: the bug repaired (was: a[:k] with k a traced jit argument: the slice's size depends on a traced value)
# mimics: positive/3058_v1_basic_slice.py
# expect: no finding
# checked: ran, no error (fixed twin)
import jax
import jax.numpy as jnp


@jax.jit
def sum_first_k(a, k):
    return jnp.sum(jnp.where(jnp.arange(a.shape[0]) < k, a, 0.0))


print(sum_first_k(jnp.arange(3.0), 2))
