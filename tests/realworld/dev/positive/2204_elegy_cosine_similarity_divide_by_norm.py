# source: https://github.com/poets-ai/elegy/pull/103
# framework: jax
# family: E
# kind: nan-grad-singular-point
# pitfall: the reviewer's simplification of the CosineSimilarity loss divides by jnp.linalg.norm without the epsilon; an all-zero row (y_true = [0, 0]) gives 0/0, so the loss and its gradient are NaN
# expect: line 13 — division by jnp.linalg.norm of a row that can be all zero (the author: "by using this approach I'm getting sometime nan values"; the fix keeps the epsilon in the denominator)
# checked: ran, reproduces (NaN loss and NaN gradient for the thread's y_true with a zero row)
import jax
import jax.numpy as jnp


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true = y_true / jnp.linalg.norm(y_true, axis=axis, keepdims=True)
    y_pred = y_pred / jnp.linalg.norm(y_pred, axis=axis, keepdims=True)
    return -jnp.sum(y_true * y_pred, axis=axis)


y_true = jnp.array([[0.0, 1.0], [0.0, 0.0]])
y_pred = jnp.array([[0.6, 0.4], [0.4, 0.6]])
print(cosine_similarity(y_true, y_pred))
print(jax.grad(lambda p: cosine_similarity(y_true, p).mean())(y_pred))
