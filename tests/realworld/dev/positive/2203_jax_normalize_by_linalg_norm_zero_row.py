# source: https://github.com/jax-ml/jax/issues/3058
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: porting torch's F.normalize as x / jnp.linalg.norm(x): for an all-zero row the norm is 0 and its gradient x / norm(x) is 0/0, so the gradient of the loss is NaN (jax_debug_nans stops there)
# expect: line 14 — jnp.linalg.norm of rows that can be all zero, divided into x (the commenter: "the calling of jnp.linalg.norm would encounter NaNs")
# checked: ran, reproduces (NaN gradient / FloatingPointError under jax_debug_nans for a zero input); the tail of the loss (the einsum operands) is cut off in the thread and reconstructed
import jax
import jax.numpy as jnp
from jax import grad


def normalize_nan(x: jnp.ndarray, axis: int, eps: float = 1e-12) -> jnp.ndarray:
    norm = jnp.linalg.norm(x, axis=axis, keepdims=True)
    # return norm will raise nan errors too
    return x / norm

def loss(x):
    return jnp.mean(jnp.einsum(
            "...qd,...kd->...qk",
            normalize_nan(x, axis=-1),
            normalize_nan(x, axis=-1),
    ))


x = jnp.zeros((2, 3, 4))
print(grad(loss)(x))
