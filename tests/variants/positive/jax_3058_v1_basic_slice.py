# source: variant of 3058_jax_jit_dynamic_slice_traced_size.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: a[:k] with k a traced jit argument: the slice's size depends on a traced value
# expect: line 14 — slice bound taken from the traced jit argument k
# checked: ran, reproduces (IndexError: Slice entries must be static integers)
import jax
import jax.numpy as jnp


@jax.jit
def sum_first_k(a, k):
    return jnp.sum(a[:k])


print(sum_first_k(jnp.arange(3.0), 2))
