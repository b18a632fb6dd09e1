# source: https://github.com/jax-ml/jax/issues/3058
# framework: jax
# kind: nan-grad-singular-point
# negative: the commenter's working version — a manual squared norm, replaced by 1 where it is below eps before the sqrt, so no 0/0 reaches the backward pass
# mimics: positive/2203_jax_normalize_by_linalg_norm_zero_row.py
# expect: no finding
# checked: ran, the gradient is finite for a zero input (jnp.where's keyword arguments condition=/x=/y= made positional, as current jax requires)
import jax
import jax.numpy as jnp
from jax import grad


def normalize(x: jnp.ndarray, axis: int, eps: float = 1e-12) -> jnp.ndarray:
    norm = jnp.sum(x * x, axis=axis, keepdims=True)
    # if the norm is close to zero
    # normalization should not be applied
    # the gradient should be the same as identify map
    norm = jnp.where(
        norm < eps,
        1.0,
        norm,
    )
    norm = jnp.sqrt(norm)
    return x / norm

def loss(x):
    return jnp.mean(jnp.einsum(
            "...qd,...kd->...qk",
            normalize(x, axis=-1),
            normalize(x, axis=-1),
    ))


x = jnp.zeros((2, 3, 4))
print(grad(loss)(x))
