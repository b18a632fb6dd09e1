# source: variant of 2203_jax_normalize_by_linalg_norm_zero_row.py
# framework: jax
# kind: nan-grad-singular-point
# negative: the bug repaired (was: the embedding normalization divides by jnp.sqrt(jnp.sum(x**2)); for an all-zero row the sqrt is differentiated at 0 and the gradient is nan)
# mimics: positive/2203_v1_l2_normalize_sqrt_sum.py
# expect: no finding
# checked: ran, no error (fixed twin; finite gradient)
import jax
import jax.numpy as jnp


def l2_normalize(x, axis=-1):
    norm = jnp.sqrt(jnp.maximum(jnp.sum(x ** 2, axis=axis, keepdims=True), 1e-12))
    return x / norm


def loss(x):
    z = l2_normalize(x)
    return jnp.mean(z @ z.T)


print(jax.grad(loss)(jnp.zeros((2, 4))))
