# source: variant of 2203_jax_normalize_by_linalg_norm_zero_row.py
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the embedding normalization divides by jnp.sqrt(jnp.sum(x**2)); for an all-zero row the sqrt is differentiated at 0 and the gradient is nan
# expect: line 13 — the norm computed as sqrt of a sum of squares, for rows that can be all zero, divided into x
# checked: ran, reproduces (NaN gradient for the zero row)
import jax
import jax.numpy as jnp


def l2_normalize(x, axis=-1):
    norm = jnp.sqrt(jnp.sum(x ** 2, axis=axis, keepdims=True))
    return x / norm


def loss(x):
    z = l2_normalize(x)
    return jnp.mean(z @ z.T)


print(jax.grad(loss)(jnp.zeros((2, 4))))
