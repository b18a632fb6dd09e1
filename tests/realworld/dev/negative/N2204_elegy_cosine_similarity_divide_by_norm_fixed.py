# source: https://github.com/poets-ai/elegy/pull/103
# framework: jax
# kind: nan-grad-singular-point
# negative: the reviewer's correction — keep the epsilon in the denominator with jnp.maximum(norm, epsilon)
# mimics: positive/2204_elegy_cosine_similarity_divide_by_norm.py
# expect: no finding
# checked: ran, finite loss and gradient for the thread's inputs
import jax
import jax.numpy as jnp

EPSILON = 1e-7


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true = y_true / jnp.maximum(jnp.linalg.norm(y_true, axis=axis, keepdims=True), EPSILON)
    y_pred = y_pred / jnp.maximum(jnp.linalg.norm(y_pred, axis=axis, keepdims=True), EPSILON)
    return -jnp.sum(y_true * y_pred, axis=axis)


y_true = jnp.array([[0.0, 1.0], [0.0, 0.0]])
y_pred = jnp.array([[0.6, 0.4], [0.4, 0.6]])
print(cosine_similarity(y_true, y_pred))
print(jax.grad(lambda p: cosine_similarity(y_true, p).mean())(y_pred))
