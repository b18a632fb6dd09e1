# source: variant of 2215_jax_jnp_minimum_of_static_shape_traced.py
# framework: jax
# family: A
# kind: jax-concretization
# pitfall: jnp.maximum of two static shape ints is staged under jit and returns a tracer; jnp.zeros then needs a concrete size
# expect: line 14 — jnp.maximum on static shape values; its traced result is the size of jnp.zeros
# checked: ran, reproduces (TypeError: Shapes must be 1D sequences of concrete values of integer type)
import jax
import jax.numpy as jnp


@jax.jit
def pad_to_longest(a, b):
    length = jnp.maximum(a.shape[0], b.shape[0])
    out = jnp.zeros((2, length))
    out = out.at[0, : a.shape[0]].set(a)
    return out.at[1, : b.shape[0]].set(b)


pad_to_longest(jnp.ones(3), jnp.ones(5))
